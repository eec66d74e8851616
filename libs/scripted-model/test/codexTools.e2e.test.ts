/**
 * Shell and apply_patch steps against the real `codex app-server`: the model slug `gpt-5.5`
 * makes Codex offer the freeform `apply_patch` tool; the thread may write its workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { applyPatch, functionCallOutputs, historyCalls, respond, say, shell, toolsOffered, type Script } from '../src/index.js';
import { startCodexSession, type CodexSession } from './support/CodexSession.js';

const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello from a scripted patch\n*** End Patch\n';

const script: Script = [
  respond(shell('echo scripted-shell-output', { callId: 'shell-1' })),
  respond(say('The command ran.')),
  respond(applyPatch(patch, { callId: 'patch-1' })),
  respond(say('The file is added.')),
];

describe('shell and apply_patch steps with the real codex app-server', { timeout: 60_000 }, () => {
  let session: CodexSession;
  let threadId: string;

  beforeAll(async () => {
    const built = checkPluginBuilt('forms');
    if (!built.ok) throw new Error(`the sample forms plugin is not built (${built.error.path}); run npx tsc -p tsconfig.lib.json in libs/sample-plugins`);
    session = await startCodexSession(script);
    threadId = await session.startThread({ model: 'gpt-5.5', sandbox: 'workspace-write' });
  }, 60_000);

  afterAll(async () => {
    await session?.dispose();
  });

  it('runs a scripted shell command and returns its output to the model', async () => {
    const { turn, items } = await session.runTurn(threadId, 'Run a command');
    expect(turn.status).toBe('completed');
    const command = items.find((item) => item.type === 'commandExecution');
    expect(command).toMatchObject({ type: 'commandExecution' });
    const afterCommand = session.model.requests[1]!;
    expect(historyCalls(afterCommand)).toContainEqual(expect.objectContaining({ callId: 'shell-1', name: 'exec_command' }));
    const output = functionCallOutputs(afterCommand).find((o) => o.callId === 'shell-1');
    expect(output?.text).toContain('scripted-shell-output');
  });

  it('applies a scripted patch through the apply_patch custom tool', async () => {
    expect(toolsOffered(session.model.requests[0]!)).toContainEqual({ type: 'custom', name: 'apply_patch' });
    const { turn, items } = await session.runTurn(threadId, 'Add a file');
    expect(turn.status).toBe('completed');
    expect(items.some((item) => item.type === 'fileChange')).toBe(true);
    expect(await readFile(join(session.workspace, 'hello.txt'), 'utf8')).toBe('hello from a scripted patch\n');
    const afterPatch = session.model.requests[3]!;
    expect(historyCalls(afterPatch)).toContainEqual({ callId: 'patch-1', type: 'custom_tool_call', name: 'apply_patch', arguments: patch });
    expect(functionCallOutputs(afterPatch).find((o) => o.callId === 'patch-1')?.type).toBe('custom_tool_call_output');
  });
});
