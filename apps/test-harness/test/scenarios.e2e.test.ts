import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { parseScenario, runScenario, formatSummary, type ScenarioReport } from '../src/index.js';

const scenariosDir = join(dirname(fileURLToPath(import.meta.url)), '../scenarios');

async function run(file: string): Promise<ScenarioReport> {
  const scenario = parseScenario(await readFile(join(scenariosDir, file), 'utf8'));
  if (E.isLeft(scenario)) throw new Error(`${file}: ${JSON.stringify(scenario.left)}`);
  return runScenario({ scenario: scenario.right, baseDir: scenariosDir });
}

const methodsOf = (report: ScenarioReport, direction: 'toAppServer' | 'fromAppServer'): string[] =>
  report.wire.flatMap((entry) => {
    const message = entry.message as { method?: unknown };
    return entry.direction === direction && typeof message.method === 'string' ? [message.method] : [];
  });

describe('scenario files against the real codex app-server', () => {
  it('every bundled scenario decodes', async () => {
    for (const file of (await readdir(scenariosDir)).filter((name) => name.endsWith('.json') && !name.endsWith('.report.json'))) {
      expect(E.isRight(parseScenario(await readFile(join(scenariosDir, file), 'utf8'))), file).toBe(true);
    }
  });

  it('forms-choose-strategy: the plugin form reaches the scripted user and the answer reaches plugin and model', async () => {
    const report = await run('forms-choose-strategy.json');
    expect(report.checks.filter((check) => !check.passed), formatSummary(report)).toEqual([]);
    expect(report.passed).toBe(true);
    const [card] = report.cards;
    expect(card?.method).toBe('mcpServer/elicitation/request');
    expect(card?.params).toMatchObject({ serverName: 'forms', mode: 'form', requestedSchema: { properties: { strategy: { type: 'string' } } } });
    expect(card?.response).toEqual({ action: 'accept', content: { strategy: 'safe' }, _meta: null });
    // every message both ways: our requests out, the server request in, and our answer out
    expect(methodsOf(report, 'toAppServer')).toEqual(expect.arrayContaining(['thread/start', 'turn/start']));
    expect(methodsOf(report, 'fromAppServer')).toEqual(expect.arrayContaining(['mcpServer/elicitation/request', 'turn/completed']));
    // what the plugin received: its elicitation result came back as the answer we gave
    const pluginSaw = (report.plugins['forms'] ?? []).flatMap((entry) => ('message' in entry ? [entry.message] : []));
    expect(pluginSaw).toContainEqual(expect.objectContaining({ result: expect.objectContaining({ action: 'accept', content: { strategy: 'safe' } }) }));
    // what the model received: the tool offered, and the tool result in the second request
    expect(report.model.requests).toHaveLength(2);
    expect(report.model.unusedResponses).toBe(0);
    expect(report.timings.spawnToInitializedMs).toBeGreaterThan(0);
  });

  it('forms-cancel-deploy: a cancelled form never deploys', async () => {
    const report = await run('forms-cancel-deploy.json');
    expect(report.checks.filter((check) => !check.passed), formatSummary(report)).toEqual([]);
    expect(report.cards[0]?.response).toEqual({ action: 'cancel', content: null, _meta: null });
  });

  it('echo-by-question-id: two turns, the second form answered by question id', async () => {
    const report = await run('echo-by-question-id.json');
    expect(report.checks.filter((check) => !check.passed), formatSummary(report)).toEqual([]);
    expect(report.turns.map((turn) => turn.status)).toEqual(['completed', 'completed']);
    expect(report.cards.map((card) => card.source._tag)).toEqual(['ByQuestionId']);
  });
});
