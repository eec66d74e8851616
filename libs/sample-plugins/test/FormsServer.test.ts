import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { FORMS_TOOLS, createFormsServer, type FormsPlugin, type FormsServerOptions } from '../src/forms/FormsServer.js';
import { clearCacheForm, customStrategyForm, deploymentTargetForm, releaseNoteForm, strategyForm } from '../src/forms/FormRequests.js';
import { parseFormsReport } from '../src/forms/FormsReport.js';
import { connectFormsClient, type FormsClient } from './support/FormsClient.js';

let plugin: FormsPlugin | undefined;
let forms: FormsClient | undefined;

afterEach(async () => {
  await forms?.client.close();
  await plugin?.server.close();
  forms = undefined;
  plugin = undefined;
});

async function connect(elicitation = true, options: FormsServerOptions = {}): Promise<{ plugin: FormsPlugin; forms: FormsClient }> {
  plugin = createFormsServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await plugin.server.connect(serverTransport);
  forms = await connectFormsClient(clientTransport, { elicitation });
  return { plugin, forms };
}

function report(text: string) {
  const parsed = parseFormsReport(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.report;
}

describe('forms plugin', () => {
  it('lists its tools and echoes without asking', async () => {
    const { forms } = await connect();
    const { tools } = await forms.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...FORMS_TOOLS]);
    expect(await forms.call('echo', { text: 'hello' })).toEqual({ text: 'hello', isError: false });
    expect(forms.elicitations).toEqual([]);
  });

  it('deploys only after an accepted target, and says exactly what came back', async () => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action: 'accept', content: { target: 'production' } });
    const accepted = await forms.call('deploy', { service: 'api' });
    expect(accepted).toEqual({ text: 'elicitation: accept {"target":"production"}\noutcome: deployed api to production', isError: false });
    expect(forms.elicitations).toEqual([deploymentTargetForm]);
    expect(plugin.performedActions()).toEqual(['deployed api to production']);
  });

  it.each([
    ['decline', 'nothing was deployed (the user declined)'],
    ['cancel', 'nothing was deployed (the user cancelled)'],
  ] as const)('does no high-impact work after %s', async (action, outcome) => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action });
    expect(report((await forms.call('deploy')).text)).toEqual({ elicitation: { action }, outcome });
    expect(plugin.performedActions()).toEqual([]);
    expect(await forms.call('performed_actions')).toEqual({ text: '[]', isError: false });
  });

  it('asks the spec example forms for each tool and acts on the answer', async () => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action: 'accept', content: { strategy: 'safe' } });
    expect(report((await forms.call('choose_strategy')).text).outcome).toBe('continuing with strategy safe');
    forms.answerWith({ action: 'accept', content: { confirm: true } });
    expect(report((await forms.call('clear_cache')).text).outcome).toBe('cleared the workspace cache');
    forms.answerWith({ action: 'accept', content: { confirm: false } });
    expect(report((await forms.call('clear_cache')).text).outcome).toBe('the cache was not cleared (the user answered false)');
    forms.answerWith({ action: 'accept', content: { releaseNote: 'Fix login failures' } });
    expect(report((await forms.call('write_release_note')).text).outcome).toBe('wrote release note: Fix login failures');
    forms.answerWith({ action: 'accept', content: { strategy: 'custom', customStrategy: 'Inspect the diff first' } });
    expect(report((await forms.call('handle_with_strategy')).text).outcome).toBe('handled with custom: Inspect the diff first');
    expect(forms.elicitations).toEqual([strategyForm, clearCacheForm, clearCacheForm, releaseNoteForm, customStrategyForm]);
    expect(plugin.performedActions()).toEqual(['cleared the workspace cache', 'wrote release note: Fix login failures', 'handled with custom: Inspect the diff first']);
  });

  it('validates answers itself: empty note, custom without text', async () => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action: 'accept', content: { releaseNote: '  ' } });
    expect(await forms.call('write_release_note')).toEqual({
      text: 'elicitation: accept {"releaseNote":"  "}\noutcome: no release note was written (the note was empty)',
      isError: true,
    });
    forms.answerWith({ action: 'accept', content: { strategy: 'custom' } });
    const custom = await forms.call('handle_with_strategy');
    expect(custom.isError).toBe(true);
    expect(report(custom.text).outcome).toBe('nothing was handled (invalid answer: strategy "custom" needs a non-empty customStrategy)');
    expect(plugin.performedActions()).toEqual([]);
  });

  it('reports the SDK rejecting content that does not match the schema, and does nothing', async () => {
    const { plugin, forms } = await connect();
    forms.answerWith({ action: 'accept', content: { target: 'moon' } });
    const result = await forms.call('deploy');
    expect(result.isError).toBe(true);
    const r = report(result.text);
    expect(r.elicitation.action).toBe('error');
    expect(r.elicitation.action === 'error' && r.elicitation.message).toMatch(/does not match requested schema/);
    expect(r.outcome).toBe('nothing was deployed (the form failed)');
    expect(plugin.performedActions()).toEqual([]);
  });

  it('reports a timed-out form as an error and does nothing', async () => {
    const { plugin, forms } = await connect(true, { elicitationTimeoutMs: 50 });
    forms.answerWith('never');
    const r = report((await forms.call('deploy')).text);
    expect(r.elicitation.action === 'error' && r.elicitation.message).toMatch(/timed out/i);
    expect(plugin.performedActions()).toEqual([]);
  });

  it('does not send a form to a client without form elicitation', async () => {
    const { plugin, forms } = await connect(false);
    expect(await forms.call('clear_cache')).toEqual({
      text: 'elicitation: unsupported\noutcome: the cache was not cleared (the client cannot show forms)',
      isError: true,
    });
    expect(plugin.performedActions()).toEqual([]);
  });
});
