/**
 * Plugin forms end to end: the real app-server, the real forms plugin (MCP SDK), the scripted model,
 * and a scripted host answering the cards the executor shows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, respond, say } from '@wework/scripted-model';
import { functionCallOutputs } from '@wework/scripted-model';
import { threadParamsFor } from '../src/executorConfig.js';
import type { HostCard } from '@wework/host-protocol';
import type { ExecutorHost } from '../src/cards/ExecutorHost.js';
import type { HostReply } from '@wework/elicitation-mapper';
import { managedConfig, startSandbox, toolOutputs } from './support/executorSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host that records every card and answers with `answer(card)`. */
function scriptedHost(answer: (card: HostCard) => HostReply): ExecutorHost & { readonly cards: HostCard[] } {
  const cards: HostCard[] = [];
  return {
    cards,
    showCard: (card) => {
      cards.push(card);
      return Promise.resolve(answer(card));
    },
  };
}


const oneToolTurn = (tool: string, args: Record<string, unknown> = {}) => [respond(callTool('forms', tool, args)), respond(say('done'))];

describe('plugin forms through the executor (granular policy, mcp_elicitations on)', () => {
  it('a single-choice form reaches the host as a card, and accept returns exactly the chosen const', async () => {
    const host = scriptedHost(() => ({ answers: { strategy: { answers: ['Safe'] } } }));
    const box = await startSandbox({ script: oneToolTurn('choose_strategy'), host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
    const turn = await box.runtime.runTurn(box.threadId, 'Ask me how to continue');
    expect(turn).toMatchObject({ right: { status: 'completed' } });

    expect(host.cards).toHaveLength(1);
    const [card] = host.cards;
    expect(card).toMatchObject({ origin: 'mcpElicitation', kind: 'form', serverName: 'forms', message: 'Choose how to continue', submitOnSelect: true });
    expect(card?.questions).toEqual([
      {
        id: 'strategy',
        header: 'Strategy',
        question: 'How should the plugin continue?',
        isOther: false,
        isSecret: false,
        options: [
          { label: 'Fast', description: '', value: 'fast' },
          { label: 'Safe', description: '', value: 'safe' },
          { label: 'Ask me before each step', description: '', value: 'manual' },
        ],
        answerType: 'singleChoice',
        required: true,
        defaultAnswers: ['Fast'],
        format: null,
        minLength: null,
        maxLength: null,
        minimum: null,
        maximum: null,
        minItems: null,
        maxItems: null,
      },
    ]);
    expect(toolOutputs(box.items)).toEqual(['elicitation: accept {"strategy":"safe"}\noutcome: continuing with strategy safe']);
    const [, second] = box.model.requests;
    expect(second && functionCallOutputs(second).map((o) => o.text).join('\n')).toContain('continuing with strategy safe');
    expect(box.log.map((entry) => entry.event)).toEqual(expect.arrayContaining(['codex mcp elicitation request', 'card answered']));
  });

  it('cancel and decline reach the plugin as such, and nothing high-impact happens', async () => {
    for (const action of ['cancel', 'decline'] as const) {
      const host = scriptedHost(() => ({ action }));
      const box = await startSandbox({ script: oneToolTurn('deploy', { service: 'web' }), host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
      await box.runtime.runTurn(box.threadId, 'Deploy');
      expect(host.cards).toHaveLength(1);
      expect(toolOutputs(box.items)[0]).toBe(`elicitation: ${action}\noutcome: nothing was deployed (the user ${action === 'cancel' ? 'cancelled' : 'declined'})`);
      await box.close();
    }
  });

  it('a boolean form returns a boolean, and a text form returns the text as given', async () => {
    const host = scriptedHost((card) =>
      card.questions[0]?.id === 'confirm' ? { answers: { confirm: { answers: ['true'] } } } : { answers: { releaseNote: { answers: ['Fix login failures'] } } },
    );
    const script = [respond(callTool('forms', 'clear_cache')), respond(callTool('forms', 'write_release_note')), respond(say('done'))];
    const box = await startSandbox({ script, host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
    await box.runtime.runTurn(box.threadId, 'Clear the cache and write a note');
    expect(toolOutputs(box.items)).toEqual([
      'elicitation: accept {"confirm":true}\noutcome: cleared the workspace cache',
      'elicitation: accept {"releaseNote":"Fix login failures"}\noutcome: wrote release note: Fix login failures',
    ]);
  });

  it('stopping the task cancels the card still waiting for the user', async () => {
    let release: ((reply: HostReply) => void) | undefined;
    const host: ExecutorHost & { aborted?: boolean } = {
      showCard: (_card, signal) =>
        new Promise<HostReply>((resolve) => {
          release = resolve;
          signal.addEventListener('abort', () => (host.aborted = true));
        }),
    };
    const box = await startSandbox({ script: oneToolTurn('deploy'), host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
    const turn = box.runtime.runTurn(box.threadId, 'Deploy');
    await expect.poll(() => release !== undefined, { timeout: 20_000 }).toBe(true);
    await box.runtime.stopTurn(box.threadId);
    const ended = await turn;
    expect(host.aborted).toBe(true);
    expect(ended).toMatchObject({ right: { status: expect.stringMatching(/interrupted|completed/) } });
    expect(box.log.map((entry) => entry.event)).toContain('card cancelled by stop');
  });
});
