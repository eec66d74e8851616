/**
 * A host that embeds the elicitation mapper with the plain MCP SDK client (no Codex in between): it
 * connects to the real forms plugin over stdio, maps each elicitation to a card, answers it, and maps
 * the answer back. Unsupported schemas are declined with the reason in the host's log.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { ElicitationCompleteNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { completesUrlCard, handleElicitationRequest, responseForCard, toMcpElicitResult, type Card, type HostReply } from '@wework/elicitation-mapper';
import { checkPluginBuilt } from '@wework/sample-plugins';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

interface EmbeddedHost {
  readonly client: Client;
  readonly cards: Card[];
  readonly log: string[];
  /** Cards a `notifications/elicitation/complete` ended (the host dismisses them). */
  readonly completed: Card[];
  call(tool: string, args?: Record<string, unknown>): Promise<string>;
}

async function embeddedHost(answer: (card: Card) => HostReply, elicitation: { form: Record<string, never>; url?: Record<string, never> } = { form: {} }): Promise<EmbeddedHost> {
  const plugin = checkPluginBuilt('forms');
  if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
  const client = new Client({ name: 'embedded-mapper-host', version: '0.0.0' }, { capabilities: { elicitation } });
  const cards: Card[] = [];
  const log: string[] = [];
  const completed: Card[] = [];
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    completed.push(...cards.filter((card) => completesUrlCard(card, notification.params)));
  });
  // The SDK checks the request against its own schema first (and rejects some shapes itself), but hands
  // the handler the request as parsed by the schema given here: keep params whole for the mapper.
  const RawElicitRequest = z.object({ method: z.literal('elicitation/create'), params: z.looseObject({}) });
  client.setRequestHandler(RawElicitRequest, (request) => {
    const decision = handleElicitationRequest(request.params);
    if (decision._tag === 'Respond') {
      log.push(`elicitation declined: ${decision.reason.message}`);
      return toMcpElicitResult(decision.response);
    }
    cards.push(decision.card);
    return toMcpElicitResult(responseForCard(decision.card, answer(decision.card)));
  });
  await client.connect(new StdioClientTransport({ command: plugin.command.command, args: [...plugin.command.args], stderr: 'ignore' }));
  clients.push(client);
  return {
    client,
    cards,
    log,
    completed,
    call: async (tool, args = {}) => {
      const result = await client.callTool({ name: tool, arguments: args });
      return (result.content as ReadonlyArray<{ text?: string }>).map((part) => part.text ?? '').join('\n');
    },
  };
}

describe('the mapper embedded in a plain MCP SDK host', () => {
  it('keeps the plugin’s field order (no Codex sorting) and round-trips a multi-question form', async () => {
    const host = await embeddedHost(() => ({ answers: { channel: { answers: ['Nightly'] }, notify: { answers: ['true'] }, replicas: { answers: ['9'] }, note: { answers: ['ship it'] } } }));
    const output = await host.call('configure_release');
    expect(host.cards[0]?.questions.map((q) => q.id)).toEqual(['channel', 'notify', 'replicas', 'note']);
    expect(output).toMatch(/^elicitation: accept \{"channel":"nightly","notify":true,"replicas":9,"note":"ship it"\}/);
  });

  it('declines a single choice with number values, with the reason in the log; the plugin sees decline', async () => {
    const host = await embeddedHost(() => ({ action: 'cancel' }));
    const output = await host.call('scale_with_numeric_choices');
    expect(host.cards).toEqual([]);
    expect(host.log).toHaveLength(1);
    expect(host.log[0]).toMatch(/^elicitation declined: .*replicas.*/);
    expect(output).toMatch(/^elicitation: decline\n/);
  });

  it('never sees a form without properties: the SDK client rejects it before any host code runs', async () => {
    const host = await embeddedHost(() => ({ action: 'cancel' }));
    const output = await host.call('ask_without_properties');
    expect(host.cards).toEqual([]);
    expect(host.log).toEqual([]);
    expect(output).toMatch(/^elicitation: error .*requestedSchema.*properties/s);
  });
});

describe('URL mode through the mapper embedded in a plain MCP SDK host (elicitation.url declared)', () => {
  it('maps the plugin’s elicitInput({ mode: "url" }) to a url card; Open accepts without content, and the completion ends the card', async () => {
    const host = await embeddedHost(() => ({ answers: { openUrl: { answers: ['Open'] } } }), { form: {}, url: {} });
    const output = await host.call('connect_account');
    expect(host.cards).toEqual([
      expect.objectContaining({
        _tag: 'UrlCard',
        message: 'Sign in to connect your account',
        target: { url: 'https://auth.example.com/connect?client=wework-forms-plugin', scheme: 'https', host: 'auth.example.com', elicitationId: 'connect-1' },
      }),
    ]);
    // accept without content: the SDK result has no `content` at all.
    expect(output).toBe('elicitation: accept\noutcome: connected the account (connect-1 completed)');
    await expect.poll(() => host.completed.length).toBe(1);
    expect(host.completed[0]).toBe(host.cards[0]);
  });

  it('Decline and Cancel reach the plugin as such', async () => {
    for (const label of ['Decline', 'Cancel']) {
      const host = await embeddedHost(() => ({ answers: { openUrl: { answers: [label] } } }), { form: {}, url: {} });
      const action = label === 'Decline' ? 'decline' : 'cancel';
      expect(await host.call('connect_account')).toBe(`elicitation: ${action}\noutcome: no account was connected (the user ${action === 'cancel' ? 'cancelled' : 'declined'})`);
    }
  });

  it('declines a javascript:, file: or plain-http link without a card, the reason naming only scheme and host', async () => {
    for (const [url, reason] of [
      ['javascript:alert(document.cookie)', 'Unsupported elicitation: url mode: scheme "javascript" is not offered (only https, or http on loopback)'],
      ['file:///etc/shadow', 'Unsupported elicitation: url mode: scheme "file" is not offered (only https, or http on loopback)'],
      ['http://bank.example/reset?token=abc', 'Unsupported elicitation: url mode: http to host "bank.example" is not offered (http only on loopback)'],
    ] as const) {
      const host = await embeddedHost(() => ({ answers: { openUrl: { answers: ['Open'] } } }), { form: {}, url: {} });
      expect(await host.call('connect_account', { url })).toBe('elicitation: decline\noutcome: no account was connected (the user declined)');
      expect(host.cards).toEqual([]);
      expect(host.log).toEqual([`elicitation declined: ${reason}`]);
    }
  });

  it('a host that declares form elicitation only is never sent a URL-mode request', async () => {
    const host = await embeddedHost(() => ({ action: 'cancel' }));
    expect(await host.call('connect_account')).toBe('elicitation: unsupported\noutcome: no account was connected (the client cannot open links)');
    expect(host.cards).toEqual([]);
  });
});
