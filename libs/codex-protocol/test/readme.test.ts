/**
 * The example at the top of README.md, kept compiling and passing.
 */
import { expect, test } from 'vitest';
import { decodeServerRequest, encodeMessage, encodeResult, McpServerElicitationRequest, Methods, ThreadStart } from '../src/index.js';

test('README example', () => {
  const answers: unknown[] = [];
  const asked: Array<{ readonly message: string; readonly fields: ReadonlyArray<string> }> = [];
  const askUser = (message: string, schema: { readonly properties: object }) => {
    asked.push({ message, fields: Object.keys(schema.properties) });
    return { strategy: 'safe' };
  };
  const reply = (answer: unknown): void => void answers.push(answer);
  // --- README example begins ---
  // One line from `codex app-server`'s stdout, parsed.
  const incoming = {
    id: 0,
    method: 'mcpServer/elicitation/request',
    params: {
      threadId: 'thr_1', turnId: 'turn_1', serverName: 'example-plugin', environmentId: null,
      mode: 'form', _meta: null, message: 'Choose how to continue',
      requestedSchema: { type: 'object', properties: { strategy: { type: 'string', title: 'Strategy', enum: ['fast', 'safe'] } }, required: ['strategy'] },
    },
  };

  const decoded = decodeServerRequest(incoming.method, incoming.params);
  if (decoded._tag === 'Left') {
    console.error(decoded.left.message); // e.g. "Invalid params of ...: params.threadId: expected string, got number 1"
  } else if (decoded.right.method === Methods.McpServerElicitationRequest && decoded.right.params.mode === 'form') {
    const { message, requestedSchema } = decoded.right.params; // typed from the generated protocol types
    const content = askUser(message, requestedSchema); // your UI: { strategy: 'safe' }
    const result = encodeResult(McpServerElicitationRequest, { action: 'accept', content, _meta: null });
    reply({ id: incoming.id, result }); // one line to the app-server's stdin
  }

  // A typed outgoing request: params are checked at compile time and encoded for the wire.
  const request = encodeMessage(ThreadStart, { cwd: '/repo', permissions: ':workspace' });
  // → { method: 'thread/start', params: { cwd: '/repo', permissions: ':workspace' } }
  // --- README example ends ---
  expect(asked).toEqual([{ message: 'Choose how to continue', fields: ['strategy'] }]);
  expect(answers).toEqual([{ id: 0, result: { action: 'accept', content: { strategy: 'safe' }, _meta: null } }]);
  expect(request).toEqual({ method: 'thread/start', params: { cwd: '/repo', permissions: ':workspace' } });
});
