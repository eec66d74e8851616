import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { AccountsSwitch, TaskStop } from '../src/Requests.js';
import {
  CardDismissedNotification,
  decodeHostNotification,
  decodeHostParams,
  decodeHostResult,
  describeDecodeErrors,
  hostRequest,
  HostReply,
  MessageSend,
} from '../src/index.js';

describe('params decoding', () => {
  it('names the field and what was expected', () => {
    const decoded = MessageSend.params.decode({ taskId: 7 });
    if (E.isRight(decoded)) throw new Error('decoded');
    expect(describeDecodeErrors(decoded.left)).toContain('params.taskId: expected string, got a number');
    expect(describeDecodeErrors(decoded.left)).toContain('params.markdown: expected string, got nothing');
  });
  it('never echoes a value', () => {
    const decoded = AccountsSwitch.params.decode({ accountId: { token: 'sk-live-secret' } });
    if (E.isRight(decoded)) throw new Error('decoded');
    expect(describeDecodeErrors(decoded.left)).toBe('params.accountId: expected string, got an object');
  });
  it('reads absent params as {} and tags a misfit with its method', () => {
    expect(decodeHostParams(TaskStop, undefined)).toMatchObject({ left: { _tag: 'InvalidHostParams', method: 'task/stop', message: 'params.taskId: expected string, got nothing (missing)' } });
    expect(decodeHostParams(TaskStop, { taskId: 't' })).toEqual(E.right({ taskId: 't' }));
  });
});

describe('result decoding', () => {
  it('keeps a fitting result as it is, unknown fields included', () => {
    const result = { taskId: 't', threadId: 'th', turnId: 'tu', status: 'completed', delivery: 'started', error: null, warnings: [], authRequired: null, extra: 1 };
    expect(decodeHostResult(MessageSend, result)).toEqual(E.right(result));
  });
  it('refuses a misfit by place and expected type, never by value', () => {
    const decoded = decodeHostResult(MessageSend, { taskId: 'sk-live-secret' });
    expect(decoded).toMatchObject({ left: { _tag: 'InvalidHostResult', method: 'message/send' } });
    if (E.isRight(decoded)) throw new Error('decoded');
    expect(decoded.left.message).toContain('result.threadId: expected string, got nothing');
    expect(decoded.left.message).not.toContain('sk-live-secret');
  });
});

describe('notifications', () => {
  it('decodes a notification by its descriptor, and names a misfit by place, never by value', () => {
    expect(decodeHostNotification(CardDismissedNotification, { cardId: 'card-1' })).toEqual(E.right({ cardId: 'card-1' }));
    const decoded = decodeHostNotification(CardDismissedNotification, { cardId: 42, token: 'sk-live-secret' });
    expect(decoded).toMatchObject({ left: { _tag: 'InvalidHostNotification', method: 'card/dismissed' } });
    if (E.isRight(decoded)) throw new Error('decoded');
    expect(decoded.left.message).toBe('params.cardId: expected string, got a number');
    expect(decoded.left.message).not.toContain('sk-live-secret');
  });
});

describe('requests and card answers', () => {
  it('builds a JSON-RPC request', () => {
    expect(hostRequest(TaskStop, 3, { taskId: 't' })).toEqual({ jsonrpc: '2.0', id: 3, method: 'task/stop', params: { taskId: 't' } });
  });
  it('decodes a card answer: answers by question id, or cancel / decline', () => {
    expect(HostReply.decode({ answers: { q: { answers: ['A'] } } })).toEqual(E.right({ answers: { q: { answers: ['A'] } } }));
    expect(HostReply.decode({ action: 'decline' })).toEqual(E.right({ action: 'decline' }));
    expect(E.isLeft(HostReply.decode({ action: 'accept' }))).toBe(true);
    expect(E.isLeft(HostReply.decode({ answers: { q: 'A' } }))).toBe(true);
  });
});
