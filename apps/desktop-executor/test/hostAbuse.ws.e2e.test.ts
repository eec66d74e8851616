/**
 * A hostile host over the WebSocket transport, end to end: the executor's serve entry as a process
 * (`--ws --allow-origin http://localhost:5173`), the real app-server, the scripted model. The Origin
 * allow-list (403, logged without the origin), the notifications that used to stop the executor, a
 * fast-check fuzz of 10,000 hostile frames (with frames over the limit, which close only their own
 * connection with 1009) after which `executor/info` still answers and memory stays bounded, 1,000
 * requests that reuse ids, each answered exactly once though the host closes right after them, and
 * 5,000 requests at once, each answered exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { HOST_LIMITS } from '@wework/host-protocol';
import { announcedEndpoint, concurrentReadOnlyRequests, ECHO_MARKER, expectEachAnsweredOnce, expectEachReusedIdAnsweredOnce, expectTaggedErrors, hostileBatch, isOverloaded, Replies, residentBytes, reusedIdRequests, sendInWaves, startServeInSandbox, type ServedExecutor } from './support/hostAbuse.js';

const ALLOWED = 'http://localhost:5173';
const cleanups: Array<() => Promise<void>> = [];
let served: ServedExecutor;
let endpoint: { readonly port: number; readonly token: string };
const replies = new Replies();
const notJson: string[] = [];

/** Opens a host connection; resolves with the socket, or rejects with the HTTP status of the refusal. */
function open(options: { readonly token?: string; readonly origin?: string } = {}, answers: Replies = replies): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${endpoint.port}`, {
      headers: { authorization: `Bearer ${options.token ?? endpoint.token}` },
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    });
    socket.on('message', (data: Buffer) => {
      try {
        answers.add(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
      } catch {
        notJson.push(data.toString('utf8').slice(0, 80));
      }
    });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => {
      reject(new Error(`refused ${response.statusCode ?? 0}`));
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

let socket: WebSocket;
const send = (target: WebSocket, frame: string | Buffer, binary = false): Promise<void> =>
  new Promise((resolve, reject) => target.send(frame, { binary }, (error) => (error ? reject(error) : resolve())));
const closed = (target: WebSocket): Promise<number> => new Promise((resolve) => (target.readyState === target.CLOSED ? resolve(-1) : target.once('close', (code: number) => resolve(code))));

/** Asks once; an Overloaded answer is retried under a fresh id, as a host does. */
const ask = async (id: string, method: string, timeoutMs = 30_000): Promise<Record<string, unknown>> => {
  for (let attempt = 0; ; attempt += 1) {
    const attemptId = attempt === 0 ? id : `${id}#${attempt}`;
    await send(socket, JSON.stringify({ jsonrpc: '2.0', id: attemptId, method, params: {} }));
    const answer = await replies.wait(attemptId, timeoutMs, served.exited);
    if (!isOverloaded(answer) || attempt >= 200) return answer;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

beforeAll(async () => {
  served = await startServeInSandbox(['--ws', '--allow-origin', ALLOWED], cleanups);
  endpoint = await announcedEndpoint(served);
  socket = await open();
  cleanups.push(async () => void socket.terminate());
  expect(await ask('start', 'executor/info', 90_000)).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
}, 120_000);
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a hostile host over WebSocket', () => {
  it('refuses an upgrade from an origin not allowed with 403, logging no origin; accepts the allowed one and none', async () => {
    await expect(open({ origin: 'http://evil-origin.example' })).rejects.toThrow('refused 403');
    await expect(open({ origin: 'http://localhost:5174' })).rejects.toThrow('refused 403');
    await expect(open({ origin: ALLOWED, token: 'f'.repeat(64) })).rejects.toThrow('refused 401');
    const allowed = await open({ origin: ALLOWED });
    allowed.close();
    await expect.poll(() => served.stderr(), { timeout: 10_000 }).toContain('host connection refused reason="origin not allowed"');
    expect(served.stderr()).not.toContain('evil-origin');
    expect(served.stderr()).not.toContain('5174');
  });

  it('survives the $/cancelRequest notifications that used to stop it, and answers next', async () => {
    for (const frame of ['{"jsonrpc":"2.0","method":"$/cancelRequest"}', '{"jsonrpc":"2.0","method":"$/cancelRequest","params":null}', '{"jsonrpc":"2.0","method":"$/cancelRequest","params":[]}']) await send(socket, frame);
    expect(await ask('after-cancel', 'executor/info')).toMatchObject({ result: { protocolVersion: 1 } });
    expect(served.child.exitCode).toBeNull();
  });

  it('answers executor/info after every batch of a 10,000-frame fuzz, with bounded memory', { timeout: 120_000 }, async () => {
    const batches = 20;
    let baseline = 0;
    let tooBig = 0;
    let marked = 0;
    for (let batch = 0; batch < batches; batch += 1) {
      const frames = hostileBatch(500, 2600 + batch).flatMap((message) => message.text.split('\n'));
      marked += frames.filter((frame) => frame.includes(ECHO_MARKER)).length;
      for (const frame of frames) void send(socket, frame).catch(() => undefined);
      await send(socket, Buffer.from('{"id":"binary","method":"executor/info"}'), true);
      const probe = await ask(`probe-${batch}`, 'executor/info');
      expect(probe).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
      if (batch === 0) baseline = residentBytes(served.child.pid ?? -1);
      if (batch % 5 === 4) {
        // A frame over the limit closes this connection only (1009); the host connects again.
        const ended = closed(socket);
        await send(socket, `{"id":"huge","method":"executor/info","params":"${'x'.repeat(HOST_LIMITS.maxMessageBytes)}"}`).catch(() => undefined);
        expect(await ended).toBe(1009);
        tooBig += 1;
        socket = await open();
      }
    }
    const grown = residentBytes(served.child.pid ?? -1) - baseline;
    expect(grown).toBeLessThan(160 * 1024 * 1024);
    expect(tooBig).toBe(4);
    expect(served.child.exitCode).toBeNull();
    expect(notJson).toEqual([]);
    for (let batch = 0; batch < batches; batch += 1) expect(replies.byId.get(JSON.stringify(`probe-${batch}`))).toHaveLength(1);
    expect(replies.byId.has('"huge"')).toBe(false);
    expect(replies.byId.has('"binary"')).toBe(false);
    expect(replies.withoutId.some((reply) => (reply['error'] as { message?: string } | undefined)?.message === 'Parse error: the message is not UTF-8 text')).toBe(true);
    // Every error reply is tagged; a malformed message gets its code's documented tag, over either transport.
    const tagged = expectTaggedErrors(replies);
    for (const code of [-32700, -32600, -32601, -32602]) expect(tagged.get(code)?.size ?? 0, String(code)).toBeGreaterThan(0);
    // No reply and no log line echoes a value of what was sent: the marker the fuzz carried appears in neither.
    expect(marked).toBeGreaterThan(100);
    for (const reply of [...replies.withoutId, ...[...replies.byId.values()].flat()]) expect(JSON.stringify(reply)).not.toContain(ECHO_MARKER);
    expect(served.stderr()).not.toContain(ECHO_MARKER);
  });

  it('answers each of 1,000 requests that reuse ids exactly once, also when the host closes right after the last one', { timeout: 30_000 }, async () => {
    const own = new Replies();
    const host = await open({}, own);
    const ended = new Promise<{ readonly code: number }>((resolve) => host.once('close', (code: number) => resolve({ code })));
    const requests = reusedIdRequests(1000, 8, 4400);
    await sendInWaves(requests, own, async (lines) => void (await Promise.all(lines.map((line) => send(host, line)))));
    // The host's Close frame ends its input, as the end of stdin does: the answers still owed come first.
    host.close(1000);
    expect(await ended).toEqual({ code: 1000 });
    const counts = expectEachReusedIdAnsweredOnce(own, requests);
    expect(counts.results + counts.duplicates + counts.overloaded).toBe(1000);
  });

  it('answers 5,000 concurrent requests exactly once each, with a result or the retryable -32011', { timeout: 180_000 }, async () => {
    const { ids, lines } = concurrentReadOnlyRequests(5000);
    for (const line of lines) void send(socket, line);
    const answers = await Promise.all(ids.map((id) => replies.wait(id, 150_000, served.exited)));
    expectEachAnsweredOnce(replies, ids, answers);
    expect(await ask('after-burst', 'task/list')).toMatchObject({ result: { tasks: [] } });
  });
});
