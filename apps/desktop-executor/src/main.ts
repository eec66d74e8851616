/**
 * `npm start`: the desktop executor's demo conversation against the real codex app-server, with the
 * scripted model as the embedded default (no OpenAI account needed).
 */
import { runDemo } from './runDemo.js';

const result = await runDemo({ print: (line) => console.log(line) });
if (result._tag === 'DemoFailed') {
  console.error(`The demo failed: ${result.message}`);
  if (result.stderrTail !== '') console.error(`codex app-server stderr (last lines):\n${result.stderrTail}`);
  process.exitCode = 1;
} else if (result.turn.status !== 'completed') {
  process.exitCode = 1;
}
