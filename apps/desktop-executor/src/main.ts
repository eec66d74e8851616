/**
 * `npm start`: the desktop executor's demo conversation against the real codex app-server, with the
 * scripted model as the embedded default (no OpenAI account needed). `npm start -- --codex=PATH` runs
 * it against another Codex; a version outside the supported ones is named in a warning.
 */
import { resolve } from 'node:path';
import { DEMO_USAGE, parseDemoInvocation } from './DemoArguments.js';
import { runDemo } from './runDemo.js';

const invocation = parseDemoInvocation(process.argv.slice(2), process.env['WEWORK_CODEX_PATH']);
if (invocation._tag === 'Left') {
  console.error(invocation.left);
  process.exitCode = 2;
} else if (invocation.right._tag === 'Help') {
  console.log(DEMO_USAGE);
} else {
  const { codexPath } = invocation.right;
  const result = await runDemo({ print: (line) => console.log(line), warn: (line) => console.error(line), ...(codexPath === null ? {} : { codexPath: resolve(codexPath) }) });
  if (result._tag === 'DemoFailed') {
    console.error(`The demo failed: ${result.message}`);
    if (result.stderrTail !== '') console.error(`codex app-server stderr (last lines):\n${result.stderrTail}`);
    process.exitCode = 1;
  } else if (result.turn.status !== 'completed') {
    process.exitCode = 1;
  }
}
