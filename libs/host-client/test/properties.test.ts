/**
 * Laws of the client over an executor in memory, with fast-check: request ids are unique and every
 * request is answered exactly once (whatever the order of the answers, errors and drops), the bound of
 * requests in flight is never passed; an event stream with duplicates and gaps reaches the host once,
 * in order, each gap answered by one `events/subscribe { after }` at a time; the backoff stays within
 * its bounds.
 */
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHostClient } from '../src/index.js';
import { initialStream, takeEvent } from '../src/Stream.js';
import { reconnectDelay } from '../src/Backoff.js';
import { fakeExecutor, type FakeConnection, type SentMessage } from '../src/testing.js';

const ticks = async (n = 4): Promise<void> => {
  for (let i = 0; i < n; i += 1) await Promise.resolve();
};

describe('requests', () => {
  it('unique ids, each request answered exactly once, never more in flight than the bound', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.record({ pick: fc.nat(), kind: fc.constantFrom('result', 'error', 'misfit') }), { maxLength: 300 }),
        fc.option(fc.nat(), { nil: undefined }),
        async (count, bound, steps, dropAt) => {
          let outstanding = 0;
          let most = 0;
          const open: SentMessage[] = [];
          const executor = fakeExecutor({
            onMessage: (message) => {
              if (typeof message['method'] !== 'string' || !('id' in message)) return;
              outstanding += 1;
              most = Math.max(most, outstanding);
              open.push(message);
            },
          });
          const client = createHostClient({ connect: executor.connect, resumeOnConnect: false, reconnect: false, maxRequestsInFlight: bound, maxQueued: 10_000 });
          await client.start();
          const connection = executor.latest();
          const settled = new Map<number, number>();
          const all = Array.from({ length: count }, (_, i) =>
            client.request('task/list', {}).then((answer) => {
              settled.set(i, (settled.get(i) ?? 0) + 1);
              return answer;
            }),
          );
          const answer = (c: FakeConnection, m: SentMessage, kind: string): void => {
            outstanding -= 1;
            if (kind === 'result') c.answer(m['id'], { tasks: [] });
            else if (kind === 'error') c.answerError(m['id'], -32001, 'no task');
            else c.answer(m['id'], { tasks: 7 });
          };
          for (const [index, step] of steps.entries()) {
            if (dropAt !== undefined && index === dropAt % Math.max(1, steps.length)) connection.close();
            if (open.length === 0) break;
            const [m] = open.splice(step.pick % open.length, 1);
            if (m !== undefined && connection.isOpen) answer(connection, m, step.kind);
          }
          while (open.length > 0 && connection.isOpen) answer(connection, open.shift() as SentMessage, 'result');
          if (connection.isOpen) connection.close();
          const answers = await Promise.all(all);
          const ids = connection.requests().map((m) => m['id']);
          expect(new Set(ids).size).toBe(ids.length);
          expect(most).toBeLessThanOrEqual(bound);
          expect([...settled.values()].every((n) => n === 1)).toBe(true);
          expect(settled.size).toBe(count);
          // Every answer is a value: a result, the executor's error, a misfit, or the drop.
          for (const a of answers) expect(E.isRight(a) || ['ExecutorError', 'InvalidResult', 'Disconnected'].includes(a.left._tag)).toBe(true);
          await client.close();
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the event stream', () => {
  it('delivers each event once and in order, whatever duplicates and gaps arrive; one subscribe at a time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 80 }), async (arrivals) => {
        const last = Math.max(...arrivals);
        let subscribesOpen = 0;
        let mostOpen = 0;
        const executor = fakeExecutor({
          onMessage: (message, connection) => {
            if (message['method'] !== 'events/subscribe') return;
            subscribesOpen += 1;
            mostOpen = Math.max(mostOpen, subscribesOpen);
            const after = (message['params'] as { after: number }).after;
            // The replay (in order, before the answer), as the executor sends it.
            queueMicrotask(() => {
              for (let seq = after + 1; seq <= last; seq += 1) connection.send(event(seq));
              subscribesOpen -= 1;
              connection.answer(message['id'], { reset: false, seq: last });
            });
          },
        });
        const client = createHostClient({ connect: executor.connect, resumeOnConnect: false, reconnect: false, cursor: 0 });
        await client.start();
        const taken: number[] = [];
        client.onNotification('transcript/turnStarted', (p) => void taken.push((p as unknown as { seq: number }).seq));
        const connection = executor.latest();
        // The stream starts at 1: the host saw the first event before the arrivals.
        connection.send(event(1));
        for (const seq of arrivals) connection.send(event(seq));
        await ticks(20);
        expect(taken).toEqual(Array.from({ length: last }, (_, i) => i + 1));
        expect(mostOpen).toBeLessThanOrEqual(1);
        await client.close();
      }),
      { numRuns: 80 },
    );
  });

  it('takeEvent never moves the cursor back, and takes only the next seq once anchored', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 100 }), (seqs) => {
        let state = initialStream();
        for (const seq of seqs) {
          const before = state.cursor;
          const [next, step] = takeEvent(state, seq);
          expect(next.cursor).toBeGreaterThanOrEqual(before);
          if (step._tag === 'Take' && state.anchored) expect(seq).toBe(before + 1);
          if (step._tag !== 'Take') expect(next.cursor).toBe(before);
          state = next;
        }
      }),
    );
  });
});

describe('backoff', () => {
  it('stays within its bounds and never shrinks', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000 }), fc.nat({ max: 100_000 }), fc.nat({ max: 2_000 }), (min, span, attempt) => {
        const bounds = { minDelayMs: min, maxDelayMs: min + span };
        const delay = reconnectDelay(attempt, bounds);
        expect(delay).toBeGreaterThanOrEqual(min);
        expect(delay).toBeLessThanOrEqual(min + span);
        expect(reconnectDelay(attempt + 1, bounds)).toBeGreaterThanOrEqual(delay);
      }),
    );
  });
});

function event(seq: number): unknown {
  return { jsonrpc: '2.0', method: 'transcript/turnStarted', params: { taskId: 'a', threadId: 't', turnId: `u${seq}`, seq } };
}
