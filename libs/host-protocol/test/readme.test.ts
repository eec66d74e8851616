/**
 * The example at the top of README.md, kept compiling and passing.
 */
import * as E from 'fp-ts/lib/Either.js';
import { expect, test } from 'vitest';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the schema example validates with ajv, as a host would
import { Ajv2020 } from 'ajv/dist/2020.js';
import schema from '@wework/host-protocol/schema.json' with { type: 'json' };
import { acceptEvent, decodeHostParams, decodeHostResult, hostRequest, schemaForMessage, TaskCreate } from '../src/index.js';

test('README example', () => {
  const task = { taskId: 'task-1', threadId: 'thread-1', modelSelection: { model: null }, executionRequest: { workspace: '/w' }, archived: false };
  const reply = { jsonrpc: '2.0', id: 1, result: { task } };

  // --- README example begins ---
  const params = decodeHostParams(TaskCreate, { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: '/w' } });
  if (E.isLeft(params)) throw new Error(params.left.message); // "params.taskId: expected string, got a number" — never the value
  const request = hostRequest(TaskCreate, 1, params.right); // { jsonrpc: '2.0', id: 1, method: 'task/create', params }
  const result = decodeHostResult(TaskCreate, reply.result); // Either<InvalidHostResult, { task: TaskRecord }>
  // --- README example ends ---

  expect(request).toEqual({ jsonrpc: '2.0', id: 1, method: 'task/create', params: { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: '/w' } } });
  expect(result).toEqual(E.right({ task }));
  expect(decodeHostParams(TaskCreate, { taskId: 7, modelSelection: { model: null }, executionRequest: { workspace: '/w' } })).toMatchObject({
    left: { message: 'params.taskId: expected string, got a number' },
  });
});

test('README event-stream example', () => {
  const taken: number[] = [];
  // --- README event-stream example begins ---
  let cursor = 0;
  const onNotification = (params: { seq: number }) => {
    const verdict = acceptEvent(cursor, params.seq); // 'next' | 'duplicate' | 'gap'
    if (verdict === 'duplicate') return;
    cursor = params.seq; // on 'gap': send events/subscribe { after: cursor } again, or reload
    // --- README event-stream example ends ---
    taken.push(params.seq);
  };
  for (const seq of [1, 2, 2, 3, 1, 5]) onNotification({ seq });
  expect(taken).toEqual([1, 2, 3, 5]);
  expect(cursor).toBe(5);
});

test('README schema example', () => {
  const validates = (params: unknown): boolean => {
    const message = { jsonrpc: '2.0', id: 2, method: 'task/create', params };
    // --- README example begins --- (the schema)
    const ajv = new Ajv2020({ allowUnionTypes: true });
    ajv.addSchema(schema);
    const target = schemaForMessage('hostRequest', 'task/create', 'params'); // also 'result', 'errorData'; 'executorRequest' (card/show), 'notification'
    if (E.isLeft(target)) throw new Error(target.left._tag); // 'UnknownMethod' or 'NoSuchPart'
    const valid = ajv.validate(target.right.ref, message.params); // false: ajv.errors says where
    // --- README example ends ---
    if (!valid) expect(ajv.errors?.length).toBeGreaterThan(0);
    return valid;
  };
  expect(validates({ taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: '/w' } })).toBe(true);
  expect(validates({ taskId: 7, modelSelection: { model: null }, executionRequest: { workspace: '/w' } })).toBe(false);
  expect(schemaForMessage('hostRequest', 'task/creat', 'params')).toMatchObject({ left: { _tag: 'UnknownMethod' } });
});
