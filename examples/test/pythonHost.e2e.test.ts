/**
 * The Python host example end to end: `python3 examples/python-host/host.py` starts the real executor
 * (its built `serve.js`), which runs the real `codex app-server` with the scripted model and the real
 * forms plugin. The example answers the plugin's form by the option whose value is `safe`; the plugin
 * must have received that value, the model the plugin's result, and nothing of the run may be left
 * running afterwards (the checks are `expectExampleHeld`, shared with the TypeScript twin's test).
 *
 * Without `python3` the test is skipped with a message — except in CI (`CI` is set), where it fails.
 */
import { afterAll, describe, it } from 'vitest';
import { closeRuns, expectExampleHeld, HOST_ARGS, HOST_PY, prepareRun, pythonAvailable, runExample } from './support/hostExample.js';

afterAll(closeRuns);

describe('the Python host example', () => {
  it.skipIf(!pythonAvailable())(
    'drives the real executor over stdio: the form answered by value reaches the plugin, the turn completes, malformed requests are refused',
    async () => {
      const run = await prepareRun();
      const outcome = await runExample(run, 'python3', [HOST_PY, ...HOST_ARGS]);
      await expectExampleHeld(run, outcome, { name: 'host.py', taskId: 'python-host-1', unknownMethod: { code: -32601, tag: 'MethodNotFound' } });
    },
  );
});
