/**
 * The refused-answer rule, end to end: the executor's serve entry as a process, the real app-server,
 * the real forms plugin and the scripted model. An answer that does not fit its card — too many picks
 * for an array with limits, a label that names no option, an approval choice the card did not offer —
 * is refused to the host: the card is shown again (same cardId) with an `error`, at most three times,
 * and only then does the request get cancel (decline for execution approvals).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { callTool, respond, say, shell, type Script } from '@wework/scripted-model';
import type { HostCard, HostReply } from '@wework/host-protocol';
import type { CardPolicy, ExecutorHostClient } from '../src/host/ExecutorHostClient.js';
import { startHostBox, type HostBox } from './support/executorHostBox.js';

let box: HostBox | undefined;
let host: ExecutorHostClient;
let workspace: string;

const pick = (id: string, ...labels: string[]): HostReply => ({ answers: { [id]: { answers: labels } } });

/** The user: four regions first (one too many), then two; a strategy no option has, every time; an approval label the card lacks, then "Run once". */
const shows = new Map<string, number>();
const policy: CardPolicy = (card) => {
  const show = (shows.get(card.cardId) ?? 0) + 1;
  shows.set(card.cardId, show);
  const id = card.questions[0]?.id ?? '';
  if (id === 'regions') return show === 1 ? pick(id, 'EU', 'US', 'Asia', 'South America') : pick(id, 'EU', 'Asia');
  if (id === 'strategy') return pick(id, 'Sideways');
  return show === 1 ? pick(id, 'Run it anyway') : pick(id, 'Run once');
};

beforeAll(async () => {
  const plugin = checkPluginBuilt('forms');
  if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
  const script: Script = [
    respond(callTool('forms', 'roll_out')),
    respond(say('Rolled out.')),
    respond(callTool('forms', 'choose_strategy')),
    respond(say('No strategy was chosen.')),
    respond(shell('touch approved.txt', { sandboxPermissions: 'require_escalated', justification: 'the task needs this file' })),
    respond(say('File created.')),
  ];
  box = await startHostBox({
    prefix: 'harness-refused-',
    script,
    mcpServers: { forms: { ...plugin.command, default_tools_approval_mode: 'approve' } },
    waitForPlugins: ['forms'],
    cards: policy,
  });
  ({ host, workspace } = box);
  const created = await host.request('task/create', { taskId: 'task-1', modelSelection: { model: null, options: { permissionMode: 'full-access' } }, executionRequest: { workspace } });
  if (created._tag === 'Left') throw new Error(created.left.message);
}, 120_000);

afterAll(async () => {
  await box?.close();
});

const cardsOf = (questionId: string): ReadonlyArray<HostCard> => host.cards.filter((card) => card.questions[0]?.id === questionId);

const toolOutputs = (): string[] =>
  host.notifications('transcript/item').flatMap((n) => {
    const params = n.params as { phase: string; item: { type: string; result?: { content?: Array<{ text?: string }> } | null } };
    return params.phase === 'completed' && params.item.type === 'mcpToolCall' ? [(params.item.result?.content ?? []).map((c) => c.text ?? '').join('')] : [];
  });

describe('the host learns that its answer was refused', () => {
  it('array limits are shown and enforced: four picks are refused, the re-shown card answered with two reaches the plugin', async () => {
    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'Roll the release out.' })).toMatchObject({ right: { status: 'completed' } });
    const [first, second, ...more] = cardsOf('regions');
    expect(more).toEqual([]);
    expect(first).toMatchObject({ kind: 'form', questions: [{ id: 'regions', answerType: 'multiChoice', minItems: 1, maxItems: 3 }] });
    expect(first?.error).toBeNull();
    expect(second?.cardId).toBe(first?.cardId);
    expect(second?.error).toEqual({ questionId: 'regions', problem: 'TooManyPicks', message: 'regions: 4 picks, at most 3 allowed', attemptsLeft: 2 });
    expect(toolOutputs()[0]).toBe('elicitation: accept {"regions":["eu","ap"]}\noutcome: rolled out to eu, ap');
  });

  it('a label that names no option is refused, shown again with the error, and only after the third show becomes cancel', async () => {
    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'Ask me how to continue.' })).toMatchObject({ right: { status: 'completed' } });
    const strategyCards = cardsOf('strategy');
    expect(strategyCards.map((card) => card.error?.attemptsLeft ?? null)).toEqual([null, 2, 1]);
    expect(new Set(strategyCards.map((card) => card.cardId)).size).toBe(1);
    expect(strategyCards[1]?.error).toMatchObject({ questionId: 'strategy', problem: 'UnknownOption', message: 'strategy: the answer names none of the options' });
    expect(toolOutputs()[1]).toBe('elicitation: cancel\noutcome: no strategy chosen (the user cancelled)');
    // The host's own text is never echoed back, nor logged.
    expect(JSON.stringify(host.cards)).not.toContain('Sideways');
    expect(host.stderr()).not.toContain('Sideways');
    await expect.poll(() => host.stderr(), { timeout: 10_000 }).toMatch(/card answer refused too often/);
  });

  it('an approval label the card did not offer is refused, and the re-shown card answered "Run once" runs the command', async () => {
    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'Create approved.txt', permissionMode: 'read-only' })).toMatchObject({ right: { status: 'completed' } });
    const approvals = host.cards.filter((card) => card.origin === 'commandApproval');
    expect(approvals).toHaveLength(2);
    expect(approvals[1]?.error).toMatchObject({ questionId: 'decision', problem: 'UnknownLabel', attemptsLeft: 2 });
    expect(existsSync(join(workspace, 'approved.txt'))).toBe(true);
  });
});
