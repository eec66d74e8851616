/**
 * The built forms plugin executable, started exactly as an MCP host starts it (the command
 * line from `formsPluginCommand()`), driven by the MCP SDK's stdio client. It needs the build
 * (`nx test` runs `build` first; by hand: `npx tsc -p tsconfig.lib.json`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { checkPluginBuilt, formsPluginCommand } from '../src/index.js';
import { FORMS_TOOLS } from '../src/forms/FormsServer.js';
import { parseFormsReport } from '../src/forms/FormsReport.js';
import { connectFormsClient, type FormsClient } from './support/FormsClient.js';

let forms: FormsClient;

beforeAll(async () => {
  const built = checkPluginBuilt('forms');
  if (!built.ok) throw new Error(`forms plugin not built at ${built.error.path}: run npx tsc -p tsconfig.lib.json in libs/sample-plugins`);
  const { command, args } = formsPluginCommand();
  forms = await connectFormsClient(new StdioClientTransport({ command, args: [...args], stderr: 'inherit' }), { elicitation: true });
});

afterAll(async () => {
  await forms?.client.close();
});

describe('forms plugin over stdio', () => {
  it('starts from the built output with process.execPath', () => {
    const { command, args } = formsPluginCommand();
    expect(command).toBe(process.execPath);
    expect(args).toHaveLength(1);
    expect(args[0]).toMatch(/dist[\\/]bin[\\/]forms-plugin\.js$/);
  });

  it('lists its tools and echoes', async () => {
    expect((await forms.client.listTools()).tools.map((t) => t.name)).toEqual([...FORMS_TOOLS]);
    expect(await forms.call('echo', { text: 'over stdio' })).toEqual({ text: 'over stdio', isError: false });
  });

  it('round-trips accept, decline and cancel through a real elicitation', async () => {
    forms.answerWith({ action: 'accept', content: { target: 'staging' } });
    expect(await forms.call('deploy', { service: 'web' })).toEqual({ text: 'elicitation: accept {"target":"staging"}\noutcome: deployed web to staging', isError: false });
    forms.answerWith({ action: 'decline' });
    expect(parseFormsReport((await forms.call('deploy')).text)).toEqual({
      ok: true,
      report: { elicitation: { action: 'decline' }, outcome: 'nothing was deployed (the user declined)' },
    });
    forms.answerWith({ action: 'cancel' });
    expect((await forms.call('clear_cache')).text).toBe('elicitation: cancel\noutcome: the cache was not cleared (the user cancelled)');
    expect(forms.elicitations.map((e) => e.message)).toEqual(['Choose a deployment target', 'Choose a deployment target', 'Continue deleting the cache?']);
    expect(await forms.call('performed_actions')).toEqual({ text: '["deployed web to staging"]', isError: false });
  });

  it('exits when its stdin closes', async () => {
    const { command, args } = formsPluginCommand();
    const { spawn } = await import('node:child_process');
    const child = spawn(command, [...args], { stdio: ['pipe', 'ignore', 'ignore'] });
    try {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.stdin.end();
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
