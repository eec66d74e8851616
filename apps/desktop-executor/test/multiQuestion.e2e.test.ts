/**
 * Multi-question and unsupported plugin forms through the executor, against the real app-server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, respond, say } from '@wework/scripted-model';
import type { HostReply } from '@wework/elicitation-mapper';
import { threadParamsFor } from '../src/executorConfig.js';
import type { HostCard } from '@wework/host-protocol';
import type { ExecutorHost } from '../src/cards/ExecutorHost.js';
import { managedConfig, startSandbox, toolOutputs } from './support/executorSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const config = managedConfig();

function hostAnswering(reply: HostReply): ExecutorHost & { readonly cards: HostCard[] } {
  const cards: HostCard[] = [];
  return { cards, showCard: (card) => (cards.push(card), Promise.resolve(reply)) };
}

const configureRelease = [respond(callTool('forms', 'configure_release')), respond(say('done'))];

/** The content the plugin says it accepted: the JSON after `elicitation: accept `. */
const acceptedContent = (output: string | undefined): unknown => JSON.parse(/^elicitation: accept (.*)$/m.exec(output ?? '')?.[1] ?? 'null');

describe('a multi-question form (choice + boolean + integer + text)', () => {
  it('round-trips with the right types', async () => {
    const host = hostAnswering({
      answers: { channel: { answers: ['Beta'] }, notify: { answers: ['false'] }, replicas: { answers: ['3'] }, note: { answers: [''] } },
    });
    const box = await startSandbox({ script: configureRelease, host, config, threadParams: threadParamsFor() }, cleanups);
    await box.runtime.runTurn(box.threadId, 'Configure the release');
    const [card] = host.cards;
    // Codex forwards the properties sorted by key; the card keeps the order it received.
    expect(card?.questions.map((q) => q.id)).toEqual(['channel', 'note', 'notify', 'replicas']);
    expect(card?.submitOnSelect).toBe(false);
    expect(card?.questions.find((q) => q.id === 'notify')?.options?.map((o) => o.label)).toEqual(['true', 'false']);
    expect(card?.questions.find((q) => q.id === 'replicas')?.options).toBeNull();
    const [output] = toolOutputs(box.items);
    expect(acceptedContent(output)).toEqual({ channel: 'beta', note: '', notify: false, replicas: 3 });
    expect(output).toContain('configured release: channel=beta notify=false replicas=3 note=""');
    expect(output).toContain('"replicas":"integer"');
    expect(output).toContain('"notify":"boolean"');
  });

  it('omits an integer that does not parse, and the plugin validates the rest', async () => {
    const host = hostAnswering({ answers: { channel: { answers: ['Stable'] }, notify: { answers: ['true'] }, replicas: { answers: ['three'] } } });
    const box = await startSandbox({ script: configureRelease, host, config, threadParams: threadParamsFor() }, cleanups);
    await box.runtime.runTurn(box.threadId, 'Configure the release');
    const [output] = toolOutputs(box.items);
    // The executor accepted without `replicas`; the plugin's MCP SDK then validates the content against
    // the schema and rejects it for exactly that missing required property.
    expect(box.log.find((entry) => entry.event === 'card answered')?.fields).toMatchObject({ action: 'accept' });
    expect(output).toMatch(/^elicitation: error .*-32602.*must have required property 'replicas'/);
    expect(output).not.toMatch(/channel|notify/);
    expect(output).toContain('the release was not configured');
  });
});

describe('a number that does not parse (the forms spec: the field is omitted)', () => {
  it('gives the plugin accept with every other field and no replicas, on the first submit', async () => {
    const host = hostAnswering({ answers: { service: { answers: ['Web'] }, replicas: { answers: ['12abc'] } } });
    const script = [respond(callTool('forms', 'scale_service')), respond(say('done'))];
    const box = await startSandbox({ script, host, config, threadParams: threadParamsFor() }, cleanups);
    await box.runtime.runTurn(box.threadId, 'Scale the web service');
    // Shown once: a number that does not parse is no reason to show the card again, nor to cancel.
    expect(host.cards).toHaveLength(1);
    expect(host.cards[0]?.error ?? null).toBeNull();
    expect(box.log.filter((entry) => entry.event === 'card answer refused')).toEqual([]);
    expect(box.log.find((entry) => entry.event === 'card answered')?.fields).toMatchObject({ action: 'accept' });
    const [output] = toolOutputs(box.items);
    expect(acceptedContent(output)).toEqual({ service: 'web' });
    expect(output).toContain('outcome: scaled web to its current count');
  });
});

describe('a single choice with number values (outside the spec)', () => {
  it('reaches the executor as a plain integer field: Codex drops the numeric oneOf before forwarding', async () => {
    const host = hostAnswering({ answers: { replicas: { answers: ['3'] } } });
    const script = [respond(callTool('forms', 'scale_with_numeric_choices')), respond(say('done'))];
    const box = await startSandbox({ script, host, config, threadParams: threadParamsFor() }, cleanups);
    await box.runtime.runTurn(box.threadId, 'Scale');
    expect(host.cards).toHaveLength(1);
    expect(host.cards[0]?.questions).toEqual([
      {
        id: 'replicas',
        header: 'Replicas',
        question: 'Pick a replica count.',
        isOther: false,
        isSecret: false,
        options: null,
        answerType: 'integer',
        required: true,
        defaultAnswers: [],
        format: null,
        minLength: null,
        maxLength: null,
        minimum: null,
        maximum: null,
        minItems: null,
        maxItems: null,
      },
    ]);
    expect(toolOutputs(box.items)[0]).toMatch(/^elicitation: accept \{"replicas":3\}\noutcome: replicas chosen: 3/);
  });
});
