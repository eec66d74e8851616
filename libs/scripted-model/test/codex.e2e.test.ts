/**
 * The scripted model driving the real `codex app-server` (from the installed `@openai/codex`)
 * with the real sample forms plugin as an MCP server. Needs the built sample plugin
 * (`nx test` builds dependencies first; by hand: `npx tsc -p tsconfig.lib.json` in libs/sample-plugins).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import {
  callTool,
  fail,
  functionCallOutputs,
  hang,
  historyCalls,
  reasoning,
  respond,
  say,
  toolsOffered,
  userMessages,
  type Script,
} from '../src/index.js';
import { startCodexSession, type CodexSession } from './support/CodexSession.js';

const script: Script = [
  // turn 1
  respond(reasoning('The user greets me.'), say('Hello from the scripted model')),
  // turn 2: a tool call, then the answer after the tool result
  respond(callTool('forms', 'echo', { text: 'ping from the model' }, { callId: 'echo-call-1' })),
  respond(say('The forms plugin echoed the text.')),
  // turn 3: the model fails
  fail(400, 'scripted failure for this turn'),
  // turn 4: the stream never finishes; the turn is interrupted
  hang(),
];

describe('scripted model with the real codex app-server', { timeout: 60_000 }, () => {
  let session: CodexSession;
  let threadId: string;

  beforeAll(async () => {
    const built = checkPluginBuilt('forms');
    if (!built.ok) throw new Error(`the sample forms plugin is not built (${built.error.path}); run npx tsc -p tsconfig.lib.json in libs/sample-plugins`);
    session = await startCodexSession(script);
    threadId = await session.startThread();
  }, 60_000);

  afterAll(async () => {
    await session?.dispose();
  });

  it('answers a turn with the scripted text', async () => {
    const { turn, items } = await session.runTurn(threadId, 'Say hello');
    expect(turn.status).toBe('completed');
    const messages = items.filter((item) => item.type === 'agentMessage');
    expect(messages.map((m) => m.type === 'agentMessage' && m.text)).toEqual(['Hello from the scripted model']);

    const [request] = session.model.requests;
    expect(request?.outcome).toEqual({ _tag: 'Answered', responseIndex: 0, response: 'steps' });
    expect(request?.body).toMatchObject({ model: 'mock-model', stream: true });
    expect(userMessages(request!)).toContain('Say hello');
    expect(toolsOffered(request!)).toEqual(expect.arrayContaining([{ type: 'function', name: 'echo', namespace: 'mcp__forms' }, { type: 'function', name: 'exec_command' }]));
  });

  it('lets the model call an MCP tool of the sample plugin and sends the tool output back', async () => {
    const { turn, items } = await session.runTurn(threadId, 'Use the echo tool');
    expect(turn.status).toBe('completed');
    const toolCall = items.find((item) => item.type === 'mcpToolCall');
    expect(toolCall).toMatchObject({ type: 'mcpToolCall', server: 'forms', tool: 'echo', status: 'completed' });
    expect(items.filter((item) => item.type === 'agentMessage').map((m) => m.type === 'agentMessage' && m.text)).toEqual(['The forms plugin echoed the text.']);

    const afterTool = session.model.requests[2]!;
    expect(afterTool.outcome).toEqual({ _tag: 'Answered', responseIndex: 2, response: 'steps' });
    expect(historyCalls(afterTool)).toContainEqual({
      callId: 'echo-call-1',
      type: 'function_call',
      name: 'echo',
      namespace: 'mcp__forms',
      arguments: '{"text":"ping from the model"}',
    });
    const outputs = functionCallOutputs(afterTool).filter((o) => o.callId === 'echo-call-1');
    expect(outputs).toHaveLength(1);
    expect(outputs[0]?.text).toContain('ping from the model');
    // The earlier turn's assistant message is replayed in the full history.
    expect(JSON.stringify(afterTool.body)).toContain('Hello from the scripted model');
  });

  it('fails the turn at once when the script says fail', async () => {
    const { turn } = await session.runTurn(threadId, 'This one fails');
    expect(turn.status).toBe('failed');
    expect(turn.error?.message).toContain('scripted failure for this turn');
    expect(session.model.requests[3]?.outcome).toEqual({ _tag: 'Answered', responseIndex: 3, response: 'fail' });
  });

  it('hangs until the client interrupts the turn', async () => {
    // The model's request may reach it before the client has read turn/start's answer: wait for both.
    let started!: (turnId: string) => void;
    const startedTurn = new Promise<string>((resolve) => (started = resolve));
    const outcome = session.runTurn(threadId, 'This one hangs', { onStarted: started });
    const requests = await session.model.waitForRequests(5);
    expect(requests[4]?.outcome).toEqual({ _tag: 'Answered', responseIndex: 4, response: 'hang' });
    await session.interrupt(threadId, await startedTurn);
    expect((await outcome).turn.status).toBe('interrupted');
    expect(session.model.remaining).toBe(0);
  });

  it('fails the turn with a clear message once the script is exhausted', async () => {
    const { turn } = await session.runTurn(threadId, 'Nothing left to say');
    expect(turn.status).toBe('failed');
    expect(turn.error?.message).toContain('script exhausted, all 5 responses were used');
    expect(session.model.requests.at(-1)?.outcome).toEqual({ _tag: 'Rejected', rejection: { _tag: 'ScriptExhausted', scriptLength: 5 } });
  });
});
