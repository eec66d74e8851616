/**
 * The forms plugin's multi-question and out-of-spec forms, driven by the MCP SDK's client over an
 * in-memory transport: what the client receives, and what the plugin reports back exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createFormsServer, type FormsPlugin } from '../src/forms/FormsServer.js';
import { parseFormsReport } from '../src/forms/FormsReport.js';
import { releaseConfigurationForm, rolloutRegionsForm } from '../src/forms/FormRequests.js';
import { connectFormsClient, type FormsClient } from './support/FormsClient.js';

let plugin: FormsPlugin | undefined;
let forms: FormsClient | undefined;

afterEach(async () => {
  await forms?.client.close();
  await plugin?.server.close();
  forms = undefined;
  plugin = undefined;
});

async function connect(): Promise<{ plugin: FormsPlugin; forms: FormsClient }> {
  plugin = createFormsServer();
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await plugin.server.connect(serverTransport);
  forms = await connectFormsClient(clientTransport, { elicitation: true });
  return { plugin, forms };
}

function report(text: string) {
  const parsed = parseFormsReport(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.report;
}

describe('configure_release: a multi-question form', () => {
  it('sends the four questions and reports the content and its types exactly as received', async () => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action: 'accept', content: { channel: 'beta', notify: true, replicas: 3, note: 'Ship it' } });
    expect(await forms.call('configure_release')).toEqual({
      text:
        'elicitation: accept {"channel":"beta","notify":true,"replicas":3,"note":"Ship it"}\n' +
        'outcome: configured release: channel=beta notify=true replicas=3 note="Ship it" | types {"channel":"string","notify":"boolean","replicas":"integer","note":"string"}',
      isError: false,
    });
    expect(forms.elicitations).toEqual([releaseConfigurationForm]);
    expect(Object.keys(releaseConfigurationForm.requestedSchema.properties)).toEqual(['channel', 'notify', 'replicas', 'note']);
    expect(plugin.performedActions()).toEqual(['configured release: channel=beta notify=true replicas=3 note="Ship it"']);
  });

  it('keeps the received key order and accepts a missing optional note', async () => {
    const { forms } = await connect();
    forms.answerWith({ action: 'accept', content: { replicas: 9, notify: false, channel: 'stable' } });
    expect(report((await forms.call('configure_release')).text)).toEqual({
      elicitation: { action: 'accept', content: { replicas: 9, notify: false, channel: 'stable' } },
      outcome: 'configured release: channel=stable notify=false replicas=9 | types {"replicas":"integer","notify":"boolean","channel":"string"}',
    });
  });

  it.each([
    ['a number sent as text', { channel: 'beta', notify: true, replicas: '3' }, /replicas.*must be integer/],
    ['a boolean sent as text', { channel: 'beta', notify: 'true', replicas: 3 }, /notify.*must be boolean/],
    ['a replica count out of range', { channel: 'beta', notify: true, replicas: 12 }, /replicas.*must be <= 9/],
    ['an unknown channel', { channel: 'canary', notify: true, replicas: 3 }, /channel/],
  ])('refuses %s (the SDK validates against the schema) and configures nothing', async (_name, content, message) => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action: 'accept', content });
    const result = await forms.call('configure_release');
    expect(result.isError).toBe(true);
    const r = report(result.text);
    expect(r.elicitation.action === 'error' && r.elicitation.message).toMatch(message);
    expect(r.outcome).toBe('the release was not configured (the form failed)');
    expect(plugin.performedActions()).toEqual([]);
  });

  it.each(['decline', 'cancel'] as const)('configures nothing after %s', async (action) => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action });
    expect(report((await forms.call('configure_release')).text).elicitation).toEqual({ action });
    expect(plugin.performedActions()).toEqual([]);
  });
});

describe('scale_with_numeric_choices: a choice with number values (outside the spec)', () => {
  it('reaches the SDK client without its choices, like Codex forwards it', async () => {
    const { forms } = await connect();
    forms.answerWith({ action: 'accept', content: { replicas: 3 } });
    expect(await forms.call('scale_with_numeric_choices')).toEqual({
      text: 'elicitation: accept {"replicas":3}\noutcome: replicas chosen: 3 | types {"replicas":"integer"}',
      isError: false,
    });
    expect(forms.elicitations).toEqual([
      {
        mode: 'form',
        message: 'How many replicas?',
        requestedSchema: { type: 'object', properties: { replicas: { type: 'integer', title: 'Replicas', description: 'Pick a replica count.' } }, required: ['replicas'] },
      },
    ]);
  });

  it('still refuses a value outside the choices the plugin sent', async () => {
    const { forms } = await connect();
    forms.answerWith({ action: 'accept', content: { replicas: 2 } });
    const result = await forms.call('scale_with_numeric_choices');
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^elicitation: error ".*does not match requested schema.*"\noutcome: no replica count chosen \(the form failed\)$/);
  });
});

describe('ask_without_properties: a schema without properties (outside the spec)', () => {
  it('is refused by the SDK client (-32603, the schema has no properties record) before any answer', async () => {
    const { forms } = await connect();
    forms.answerWith({ action: 'accept', content: { anything: 'x' } });
    const result = await forms.call('ask_without_properties');
    expect(result.isError).toBe(true);
    const r = report(result.text);
    expect(r.elicitation.action === 'error' && r.elicitation.message).toMatch(/^MCP error -32603:[\s\S]*"properties"[\s\S]*expected record/);
    expect(r.outcome).toBe('nothing was described (the form failed)');
    expect(forms.elicitations).toEqual([]);
  });
});

describe('roll_out: several choices with limits', () => {
  it('sends the array with its limits and rolls out to the picked regions', async () => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action: 'accept', content: { regions: ['eu', 'ap'] } });
    expect(report((await forms.call('roll_out')).text)).toEqual({ elicitation: { action: 'accept', content: { regions: ['eu', 'ap'] } }, outcome: 'rolled out to eu, ap' });
    expect(forms.elicitations).toEqual([rolloutRegionsForm]);
    expect(rolloutRegionsForm.requestedSchema.properties['regions']).toMatchObject({ type: 'array', minItems: 1, maxItems: 3 });
    expect(plugin.performedActions()).toEqual(['rolled out to eu, ap']);
  });

  it('four picks never reach the rollout: the SDK refuses content beyond maxItems', async () => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action: 'accept', content: { regions: ['eu', 'us', 'ap', 'sa'] } });
    const result = await forms.call('roll_out');
    expect(result.isError).toBe(true);
    expect(plugin.performedActions()).toEqual([]);
  });
});
