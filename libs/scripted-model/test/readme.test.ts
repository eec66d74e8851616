/**
 * The example at the top of README.md, kept compiling and passing: the block between the markers
 * below must be the README's first TypeScript block (after its imports), line for line. The example's
 * middle step (start `codex app-server` and run a turn) is a comment there; `codex.e2e.test.ts` runs
 * that turn against the real app-server.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { callTool, functionCallOutputs, respond, say, scriptedModelCodexConfig } from '../src/index.js';
import { startScriptedModel } from '../src/node/index.js';

afterEach(() => {
  vi.restoreAllMocks();
});

test('README example', async () => {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  // --- README example begins ---
  const model = await startScriptedModel({
    script: [respond(callTool('forms', 'echo', { text: 'hi' })), respond(say('The tool said hi.'))],
    host: '127.0.0.1',
  });
  // Write this (plus [mcp_servers.forms]) to $CODEX_HOME/config.toml with your TOML writer:
  const config = scriptedModelCodexConfig({ baseUrl: model.url });
  // ... start `codex app-server` with that config, run a turn ...
  for (const request of model.requests) console.log(request.outcome, functionCallOutputs(request)); // tool results the model received
  await model.close();
  // --- README example ends ---

  expect(model.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  expect(JSON.stringify(config)).toContain(model.url);
  expect(model.requests).toEqual([]);
  await expect(fetch(`${model.url}/responses`, { method: 'POST', body: '{}' })).rejects.toThrow(); // closed: nothing listens
});
