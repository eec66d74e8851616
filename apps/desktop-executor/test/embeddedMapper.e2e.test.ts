/**
 * A host that embeds the elicitation mapper with the plain MCP SDK client (no Codex in between): it
 * connects to the real forms plugin over stdio, maps each elicitation to a card, answers it, and maps
 * the answer back. Unsupported schemas are declined with the reason in the host's log.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { handleElicitationRequest, responseForCard, toMcpElicitResult, type Card, type HostReply } from '@wework/elicitation-mapper';
import { checkPluginBuilt } from '@wework/sample-plugins';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

interface EmbeddedHost {
  readonly client: Client;
  readonly cards: Card[];
  readonly log: string[];
  call(tool: string): Promise<string>;
}

async function embeddedHost(answer: (card: Card) => HostReply): Promise<EmbeddedHost> {
  const plugin = checkPluginBuilt('forms');
  if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
  const client = new Client({ name: 'embedded-mapper-host', version: '0.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const cards: Card[] = [];
  const log: string[] = [];
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
    call: async (tool) => {
      const result = await client.callTool({ name: tool, arguments: {} });
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
