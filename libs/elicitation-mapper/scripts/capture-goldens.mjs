#!/usr/bin/env node
/**
 * Re-records the golden fixtures in test/fixtures/codex/ from the real `codex app-server`:
 * runs scenarios with the sample forms plugin through `wework-harness` (scripted model, real
 * Codex, real MCP server) and keeps, per scenario, every elicitation request exactly as the
 * client received it, the response sent, and what became of each tool call.
 *
 * Usage (at the workspace root, after `npm run build`):
 *   node libs/elicitation-mapper/scripts/capture-goldens.mjs
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const workspace = resolve(here, '../../..');
const harnessCli = join(workspace, 'apps/test-harness/dist/cli.js');
const fixtures = join(here, '../test/fixtures/codex');
const codexVersion = JSON.parse(await readFile(join(workspace, 'node_modules/@openai/codex/package.json'), 'utf8')).version;

const echoTwice = [
  { steps: [{ callTool: { server: 'forms', tool: 'echo', arguments: { text: 'one' } } }] },
  { steps: [{ say: 'first done' }] },
  { steps: [{ callTool: { server: 'forms', tool: 'echo', arguments: { text: 'two' } } }] },
  { steps: [{ say: 'second done' }] },
];

/** A tool approval scenario: the first card is answered with `respond`, any later one is declined. */
const approval = (name, toolsApproval, respond) => ({
  name,
  plugins: [{ name: 'forms', sample: 'forms', toolsApproval }],
  config: { features: { tool_call_mcp_elicitation: true } },
  model: { script: echoTwice },
  turns: [{ input: 'echo one' }, { input: 'echo two' }],
  user: { answers: [{ method: 'mcpServer/elicitation/request', respond }], otherwise: 'decline' },
});

const formAnswers = [
  ['choose_strategy', { strategy: 'safe' }],
  ['deploy', { target: 'production' }],
  ['clear_cache', { confirm: true }],
  ['write_release_note', { releaseNote: 'Fix login failures and improve startup speed' }],
  ['handle_with_strategy', { strategy: 'custom', customStrategy: 'Inspect the diff first, then only update tests' }],
];

const scenarios = [
  {
    name: 'forms',
    plugins: [{ name: 'forms', sample: 'forms' }],
    model: {
      script: [
        ...formAnswers.map(([tool]) => ({ steps: [{ callTool: { server: 'forms', tool, arguments: {} } }] })),
        { steps: [{ say: 'done' }] },
      ],
    },
    turns: [{ input: 'go' }],
    user: { answers: formAnswers.map(([, content]) => ({ method: 'mcpServer/elicitation/request', action: 'accept', content })) },
  },
  approval('tool-approval-auto-once', 'auto', { action: 'accept', content: {}, _meta: null }),
  approval('tool-approval-auto-session', 'auto', { action: 'accept', content: {}, _meta: { persist: 'session' } }),
  approval('tool-approval-auto-always', 'auto', { action: 'accept', content: {}, _meta: { persist: 'always' } }),
  approval('tool-approval-auto-decline', 'auto', { action: 'decline', content: null, _meta: null }),
  approval('tool-approval-auto-cancel', 'auto', { action: 'cancel', content: null, _meta: null }),
  approval('tool-approval-prompt-session', 'prompt', { action: 'accept', content: {}, _meta: { persist: 'session' } }),
];

const toolCalls = (report) =>
  report.turns.flatMap((turn, index) =>
    turn.items
      .filter((item) => item.type === 'mcpToolCall')
      .map((item) => ({
        turn: index + 1,
        tool: item.tool,
        status: item.status,
        output: item.result?.content?.map((c) => c.text ?? '').join('') ?? null,
        error: item.error?.message ?? null,
      })),
  );

const scratch = await mkdtemp(join(tmpdir(), 'elicitation-goldens-'));
try {
  await mkdir(fixtures, { recursive: true });
  for (const scenario of scenarios) {
    const scenarioFile = join(scratch, `${scenario.name}.json`);
    const reportFile = join(scratch, `${scenario.name}.report.json`);
    await writeFile(scenarioFile, JSON.stringify(scenario, null, 2));
    await run(process.execPath, [harnessCli, 'run', scenarioFile, '--report', reportFile, '--quiet'], { cwd: scratch }).catch((error) => {
      throw new Error(`${scenario.name}: the harness failed\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
    const report = JSON.parse(await readFile(reportFile, 'utf8'));
    const golden = {
      capturedWith: `codex ${codexVersion} through wework-harness (scripts/capture-goldens.mjs)`,
      scenario: scenario.name,
      cards: report.cards.map((card) => ({ method: card.method, params: card.params, sent: card.response })),
      toolCalls: toolCalls(report),
    };
    await writeFile(join(fixtures, `${scenario.name}.json`), JSON.stringify(golden, null, 2) + '\n');
    console.log(`${scenario.name}: ${golden.cards.length} card(s), ${golden.toolCalls.length} tool call(s)`);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
