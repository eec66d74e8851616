/**
 * A hostile host over stdio, end to end: the executor's serve entry as a process, the real app-server,
 * the scripted model. The lines that used to stop the executor, a fast-check fuzz of 10,000 hostile
 * messages (with over-long lines) after which `executor/info` still answers and memory stays bounded,
 * 5,000 requests at once, each answered exactly once (a result or the retryable -32011), and last, 1,000
 * requests that reuse ids, each answered exactly once though the host ends its input right after them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInterface } from 'node:readline';
import { HOST_LIMITS } from '@wework/host-protocol';
import { until } from '@wework/test-support';
import { concurrentReadOnlyRequests, ECHO_MARKER, expectEachAnsweredOnce, expectEachReusedIdAnsweredOnce, expectTaggedErrors, hostileBatch, isOverloaded, Replies, residentBytes, reusedIdRequests, sendInWaves, startServeInSandbox, type ServedExecutor } from './support/hostAbuse.js';

const cleanups: Array<() => Promise<void>> = [];
let served: ServedExecutor;
const replies = new Replies();
/** Where the executor's answers are recorded: `replies`, and the answers of one test apart when it wants them. */
const recorders: Replies[] = [replies];
const notJson: string[] = [];
let outputEnded: Promise<void>;

beforeAll(async () => {
  served = await startServeInSandbox(['--stdio'], cleanups);
  const lines = createInterface({ input: served.child.stdout, crlfDelay: Infinity });
  outputEnded = new Promise((resolve) => lines.once('close', resolve));
  lines.on('line', (text) => {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      notJson.push(text.slice(0, 80));
      return;
    }
    for (const recorder of recorders) recorder.add(message);
  });
  const info = await ask('start', 'executor/info', 90_000);
  expect(info).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
}, 120_000);
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const write = (text: string): Promise<void> => new Promise((resolve, reject) => served.child.stdin.write(text, (error) => (error ? reject(error) : resolve())));
/** Asks once; an Overloaded answer (the fuzz keeps many requests in flight) is retried under a fresh id, as a host does. */
const ask = async (id: string, method: string, timeoutMs = 30_000): Promise<Record<string, unknown>> => {
  for (let attempt = 0; ; attempt += 1) {
    const attemptId = attempt === 0 ? id : `${id}#${attempt}`;
    await write(`${JSON.stringify({ jsonrpc: '2.0', id: attemptId, method, params: {} })}\n`);
    const answer = await replies.wait(attemptId, timeoutMs, served.exited);
    if (!isOverloaded(answer) || attempt >= 200) return answer;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** What `promise` settles with, or `'timed out'` after `ms`. */
const within = async <A>(promise: Promise<A>, ms: number): Promise<A | 'timed out'> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([promise, new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
};

describe('a hostile host over stdio', () => {
  it('survives the $/cancelRequest lines that used to stop it, and answers next', async () => {
    await write(['{"jsonrpc":"2.0","method":"$/cancelRequest"}', '{"jsonrpc":"2.0","method":"$/cancelRequest","params":null}', '{"jsonrpc":"2.0","method":"$/cancelRequest","params":[]}', ''].join('\n'));
    expect(await ask('after-cancel', 'executor/info')).toMatchObject({ result: { protocolVersion: 1 } });
    expect(served.child.exitCode).toBeNull();
    await expect.poll(() => served.stderr(), { timeout: 10_000 }).toContain('host message refused reason="$/cancelRequest with invalid params"');
  });

  it('answers executor/info after every batch of a 10,000-message fuzz, with bounded memory', { timeout: 120_000 }, async () => {
    const batches = 20;
    const perBatch = 500;
    let baseline = 0;
    let marked = 0;
    const kinds = new Map<string, number>();
    for (let batch = 0; batch < batches; batch += 1) {
      const messages = hostileBatch(perBatch, 1300 + batch);
      for (const message of messages) kinds.set(message.kind, (kinds.get(message.kind) ?? 0) + 1);
      marked += messages.filter((message) => message.text.includes(ECHO_MARKER)).length;
      let text = messages.map((message) => `${message.text}\n`).join('');
      // Every fifth batch also carries a line over the limit (and invalid UTF-8).
      if (batch % 5 === 4) text += `{"jsonrpc":"2.0","id":"huge","method":"executor/info","params":"${'x'.repeat(HOST_LIMITS.maxMessageBytes)}"}\n`;
      await write(text);
      await write(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]).toString('latin1'));
      const probe = await ask(`probe-${batch}`, 'executor/info');
      expect(probe).toMatchObject({ result: { executor: 'wework-desktop-executor' } });
      if (batch === 0) baseline = residentBytes(served.child.pid ?? -1);
    }
    const grown = residentBytes(served.child.pid ?? -1) - baseline;
    expect(grown).toBeLessThan(160 * 1024 * 1024);
    expect(served.child.exitCode).toBeNull();
    expect(notJson).toEqual([]);
    expect([...kinds.keys()].length).toBeGreaterThanOrEqual(10);
    // Each probe answered once; the over-long lines were answered -32700 without an id, never as "huge".
    for (let batch = 0; batch < batches; batch += 1) expect(replies.byId.get(JSON.stringify(`probe-${batch}`))).toHaveLength(1);
    expect(replies.byId.has('"huge"')).toBe(false);
    expect(replies.withoutId.filter((reply) => (reply['error'] as { message?: string } | undefined)?.message?.includes(`larger than ${HOST_LIMITS.maxMessageBytes} bytes`))).toHaveLength(4);
    // Every error reply is tagged; a malformed message gets its code's documented tag, over either transport.
    const tagged = expectTaggedErrors(replies);
    for (const code of [-32700, -32600, -32601, -32602]) expect(tagged.get(code)?.size ?? 0, String(code)).toBeGreaterThan(0);
    // No reply and no log line echoes a value of what was sent: the marker the fuzz carried appears in neither.
    expect(marked).toBeGreaterThan(100);
    for (const reply of [...replies.withoutId, ...[...replies.byId.values()].flat()]) expect(JSON.stringify(reply)).not.toContain(ECHO_MARKER);
    expect(served.stderr()).not.toContain(ECHO_MARKER);
  });

  it('stops reading from a host that does not take its answers, with bounded memory, and answers everything once it reads again', { timeout: 180_000 }, async () => {
    const before = residentBytes(served.child.pid ?? -1);
    served.child.stdout.pause();
    const ids = Array.from({ length: 60_000 }, (_, i) => `flood-${i}`);
    const written = write(ids.map((id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'executor/info', params: {} })}\n`).join(''));
    await until('the executor to pause its reading', () => served.stderr().includes('host reading paused: output not taken'), 170_000);
    expect(residentBytes(served.child.pid ?? -1) - before).toBeLessThan(128 * 1024 * 1024);
    // The host's input is not all taken while its output waits: the executor stopped reading.
    expect(served.child.stdin.writableLength).toBeGreaterThan(0);
    served.child.stdout.resume();
    await written;
    await Promise.all(ids.map((id) => replies.wait(id, 150_000, served.exited)));
    for (const id of ids) expect(replies.byId.get(JSON.stringify(id)), id).toHaveLength(1);
    await expect.poll(() => served.stderr(), { timeout: 10_000 }).toContain('host reading resumed');
  });

  it('answers 5,000 concurrent requests exactly once each, with a result or the retryable -32011', { timeout: 180_000 }, async () => {
    const { ids, lines } = concurrentReadOnlyRequests(5000);
    await write(lines.map((line) => `${line}\n`).join(''));
    const answers = await Promise.all(ids.map((id) => replies.wait(id, 150_000, served.exited)));
    expectEachAnsweredOnce(replies, ids, answers);
    expect(await ask('after-burst', 'task/list')).toMatchObject({ result: { tasks: [] } });
    // Nothing of the burst keeps the runtime busy: an account switch is judged on the account, not refused as busy.
    await write(`${JSON.stringify({ jsonrpc: '2.0', id: 'switch-after-burst', method: 'accounts/switch', params: { accountId: 'not-saved' } })}\n`);
    const switched = await replies.wait('switch-after-burst', 30_000, served.exited);
    expect(switched).toMatchObject({ error: { code: -32006, message: 'that account is not saved on this device', data: { tag: 'Accounts' } } });
  });

  // Ends the executor's input, so it stays the last test of the file.
  it('answers each of 1,000 requests that reuse ids exactly once, also when the host ends its input right after the last one', { timeout: 30_000 }, async () => {
    const own = new Replies();
    recorders.push(own);
    const requests = reusedIdRequests(1000, 8, 4400);
    await sendInWaves(requests, own, (lines) => write(lines.map((line) => `${line}\n`).join('')));
    served.child.stdin.end();
    // The answers still owed come first, then the executor ends (bounded by its drain bound, 5 s).
    expect(await within(outputEnded.then(() => served.exited), 20_000)).toBe(0);
    const counts = expectEachReusedIdAnsweredOnce(own, requests);
    expect(counts.results + counts.duplicates + counts.overloaded).toBe(1000);
  });
});
