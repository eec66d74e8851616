/**
 * The Python host example end to end: `python3 examples/python-host/host.py` starts the scripted model
 * itself (`wework-scripted-model --script script.json --codex-home <executor home>/codex`, reading the URL
 * line it prints), then the real executor (its built `serve.js`), which runs the real `codex app-server`
 * with that model and the real forms plugin. The example answers the plugin's form by the option whose
 * value is `safe`; the plugin must have received that value, the model the plugin's result (recorded by the
 * command's `--record`), and nothing of the run may be left running afterwards, the model's process
 * included (the checks are `expectExampleHeld`, shared with the TypeScript twin's test).
 *
 * Without `python3` the test is skipped with a message — except in CI (`CI` is set), where it fails.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '@wework/scripted-model';
import { closeRuns, expectExampleHeld, HOST_ARGS, HOST_PY, prepareRun, pythonAvailable, runExample } from './support/hostExample.js';

afterAll(closeRuns);

describe('the Python host example', () => {
  it.skipIf(!pythonAvailable())(
    'starts wework-scripted-model and drives the real executor over stdio: the form answered by value reaches the plugin, the turn completes, malformed requests are refused',
    async () => {
      // The run's directories and the forms plugin's config only: host.py writes the model into that config.
      const run = await prepareRun(null);
      const record = join(dirname(run.dirs.executorHome), 'model-requests.json');
      const outcome = await runExample(run, 'python3', [HOST_PY, ...HOST_ARGS, '--record', record]);
      const summary = await expectExampleHeld(run, outcome, {
        name: 'host.py',
        taskId: 'python-host-1',
        unknownMethod: { code: -32601, tag: 'MethodNotFound' },
        modelRequests: async () => JSON.parse(await readFile(record, 'utf8')) as ReadonlyArray<RecordedRequest>,
      });
      expect(summary['scriptedModel']).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/), exitCode: 0 });
      expect(outcome.stdout).toMatch(/^scripted model http:\/\/127\.0\.0\.1:\d+\/v1 \(script\.json\)$/m);
    },
  );
});
