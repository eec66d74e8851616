/**
 * Golden fixtures: real messages of the pinned `codex app-server`, recorded by
 * `node src/main.mjs capture` in tools/protocol-codegen, decode with the generated codecs, and
 * encoding the decoded value gives back the same JSON (up to how an absent `Option` is spelled).
 */
import * as E from 'fp-ts/lib/Either.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  clientRequests,
  decodeResult,
  decodeServerNotification,
  decodeServerRequest,
  encodeMessage,
  encodeResult,
  serverNotifications,
  serverRequests,
  type ClientRequestMethod,
  type ServerNotificationMethod,
  type ServerRequestMethod,
} from '../src/index.js';

const goldenRoot = fileURLToPath(new URL('./fixtures/golden/', import.meta.url));

interface Golden {
  readonly method: string;
  readonly params?: unknown;
  readonly result?: unknown;
}

const load = (category: string): Array<[string, Golden]> =>
  readdirSync(join(goldenRoot, category))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => [name, JSON.parse(readFileSync(join(goldenRoot, category, name), 'utf8')) as Golden]);

const show = (error: { readonly message: string }): string => error.message;

/**
 * The value without `null` object properties. serde writes an `Option` as `null` or leaves it
 * out, and the codecs read both the same way; comparing without nulls checks that nothing else
 * changed on the way through decode and encode.
 */
const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
};

describe('server notifications from the binary decode', () => {
  test.each(load('server-notifications'))('%s', (_name, golden) => {
    const decoded = decodeServerNotification(golden.method, golden.params);
    if (E.isLeft(decoded)) expect.fail(show(decoded.left));
    const descriptor = serverNotifications[golden.method as ServerNotificationMethod];
    expect(withoutNulls(encodeMessage(descriptor, decoded.right.params as never).params)).toEqual(withoutNulls(golden.params));
  });
});

describe('server requests from the binary decode', () => {
  test.each(load('server-requests'))('%s', (_name, golden) => {
    const decoded = decodeServerRequest(golden.method, golden.params);
    if (E.isLeft(decoded)) expect.fail(show(decoded.left));
    const descriptor = serverRequests[golden.method as ServerRequestMethod];
    expect(withoutNulls(encodeMessage(descriptor, decoded.right.params as never).params)).toEqual(withoutNulls(golden.params));
  });
});

describe('results of client requests from the binary decode', () => {
  test.each(load('client-request-results'))('%s', (_name, golden) => {
    const descriptor = clientRequests[golden.method as ClientRequestMethod];
    expect(descriptor, `no descriptor for ${golden.method}`).toBeDefined();
    const decoded = decodeResult(descriptor, golden.result);
    if (E.isLeft(decoded)) expect.fail(show(decoded.left));
    expect(withoutNulls(encodeResult(descriptor, decoded.right as never))).toEqual(withoutNulls(golden.result));
  });
});

describe('the goldens cover the key messages', () => {
  const names = ['server-notifications', 'server-requests', 'client-request-results'].flatMap((c) =>
    load(c).map(([name]) => `${c}/${name}`),
  );
  test.each([
    'server-requests/mcpServer.elicitation.request.json',
    'server-requests/item.tool.requestUserInput.json',
    'server-requests/item.commandExecution.requestApproval.json',
    'server-notifications/turn.completed.json',
    'server-notifications/item.agentMessage.delta.json',
    'server-notifications/serverRequest.resolved.json',
    'client-request-results/initialize.json',
    'client-request-results/model.list.json',
    'client-request-results/thread.start.json',
    'client-request-results/config.read.json',
  ])('%s', (name) => {
    expect(names).toContain(name);
  });
});
