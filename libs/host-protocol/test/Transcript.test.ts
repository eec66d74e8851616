/**
 * Laws of the transcript mapping, over every Codex notification kind it handles: what it returns decodes
 * with the host notification's codec and carries only the task, the thread and the parts a host shows;
 * a notification of another kind, ill-typed params, arbitrary JSON or a thread without a task map to
 * nothing, and nothing throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as E from 'fp-ts/lib/Either.js';
import { ItemAgentMessageDelta, ItemCompleted, ItemStarted, TurnCompleted, TurnStarted } from '@wework/codex-protocol';
import { arbitraryOf } from '@wework/codex-protocol/testing';
import {
  HostNotifications,
  PluginsUpdateStatusNotification,
  decodeHostNotification,
  pluginsUpdateStatusParams,
  onCodexTranscript,
  transcriptNotification,
  type CodexTranscriptNotification,
} from '../src/index.js';
import { hostTranscriptNotification } from '../src/Transcript.js';

const kinds = [TurnStarted, ItemStarted, ItemAgentMessageDelta, ItemCompleted, TurnCompleted] as const;
/** The host method and the only params keys each kind may carry. */
const expected: Record<string, { readonly method: string; readonly keys: ReadonlyArray<string> }> = {
  'turn/started': {
    method: 'transcript/turnStarted',
    keys: ['taskId', 'threadId', 'turnId'],
  },
  'item/started': {
    method: 'transcript/item',
    keys: ['taskId', 'threadId', 'turnId', 'phase', 'item'],
  },
  'item/completed': {
    method: 'transcript/item',
    keys: ['taskId', 'threadId', 'turnId', 'phase', 'item'],
  },
  'item/agentMessage/delta': {
    method: 'transcript/agentMessageDelta',
    keys: ['taskId', 'threadId', 'turnId', 'itemId', 'delta'],
  },
  'turn/completed': {
    method: 'transcript/turnCompleted',
    keys: ['taskId', 'threadId', 'turn'],
  },
};

const codexNotification: fc.Arbitrary<{
  readonly method: string;
  readonly params: unknown;
}> = fc.oneof(
  ...kinds.map((descriptor) =>
    arbitraryOf(descriptor.params).map((params) => ({
      method: descriptor.method,
      params: params as unknown,
    }))
  )
);
const taskId = fc.string({ minLength: 1, maxLength: 12 });
const json = fc.jsonValue({ maxDepth: 3 });
/** A value no string or object field accepts. */
const illTyped = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));

describe('transcript notifications', () => {
  it('maps every handled Codex notification of a task to a host notification its codec decodes, with only the shown parts', () => {
    fc.assert(
      fc.property(codexNotification, taskId, ({ method, params }, task) => {
        const seen: string[] = [];
        const mapped = hostTranscriptNotification(method, params, (threadId) => (seen.push(threadId), task));
        expect(mapped).toBeDefined();
        if (mapped === undefined) return;
        const rule = expected[method];
        expect(mapped.method).toBe(rule?.method);
        expect(Object.keys(mapped.params).sort()).toEqual([...(rule?.keys ?? [])].sort());
        expect(mapped.params.taskId).toBe(task);
        expect(mapped.params.threadId).toBe(seen[0]);
        expect(E.isRight(decodeHostNotification(HostNotifications[mapped.method], JSON.parse(JSON.stringify(mapped.params))))).toBe(true);
      })
    );
  });

  it('passes items, deltas and completed turns as Codex sent them, and a started turn by its id only', () => {
    fc.assert(
      fc.property(codexNotification, taskId, ({ method, params }, task) => {
        const mapped = hostTranscriptNotification(method, params, () => task);
        const p = params as Record<string, unknown>;
        const params_ = mapped?.params as Record<string, unknown>;
        if (method === 'turn/started') expect(params_['turnId']).toBe((p['turn'] as { id: string }).id);
        if (method === 'item/started' || method === 'item/completed') {
          expect(params_['item']).toEqual(p['item']);
          expect(params_['phase']).toBe(method === 'item/started' ? 'started' : 'completed');
        }
        if (method === 'item/agentMessage/delta') expect([params_['itemId'], params_['delta']]).toEqual([p['itemId'], p['delta']]);
        if (method === 'turn/completed') expect(params_['turn']).toEqual(p['turn']);
      })
    );
  });

  it('maps nothing for a thread without a task', () => {
    fc.assert(
      fc.property(codexNotification, ({ method, params }) => {
        expect(hostTranscriptNotification(method, params, () => undefined)).toBeUndefined();
      })
    );
  });

  it('maps other methods, ill-typed params and arbitrary JSON to nothing, and never throws', () => {
    const method = fc.oneof(fc.constantFrom(...kinds.map((d) => d.method), 'thread/started', 'item/plan/delta', '__proto__'), fc.string());
    fc.assert(
      fc.property(method, json, (m, params) => {
        const mapped = hostTranscriptNotification(m, params, () => 'task-1');
        if (mapped !== undefined) expect(E.isRight(decodeHostNotification(HostNotifications[mapped.method], mapped.params))).toBe(true);
      })
    );
    fc.assert(
      fc.property(codexNotification, fc.constantFrom('threadId', 'turnId', 'turn', 'item', 'itemId', 'delta'), illTyped, ({ method, params }, key, junk) => {
        const p = params as Record<string, unknown>;
        fc.pre(key in p);
        expect(hostTranscriptNotification(method, { ...p, [key]: junk }, () => 'task-1')).toBeUndefined();
      })
    );
    for (const params of [undefined, null, 1, 'x', [], {}]) expect(hostTranscriptNotification('turn/started', params, () => 'task-1')).toBeUndefined();
  });

  it('subscribes to each handled kind once and delivers what it decoded', () => {
    const subscribed: string[] = [];
    const delivered: CodexTranscriptNotification[] = [];
    onCodexTranscript(
      (descriptor, listener) => {
        subscribed.push(descriptor.method);
        if (descriptor.method === 'item/agentMessage/delta')
          (listener as (p: unknown) => void)({
            threadId: 't',
            turnId: 'u',
            itemId: 'i',
            delta: 'Hi',
          });
      },
      (n) => delivered.push(n)
    );
    expect(subscribed.sort()).toEqual(kinds.map((d) => d.method).sort());
    expect(delivered.map((n) => transcriptNotification(n, 'task-1'))).toEqual([
      {
        method: 'transcript/agentMessageDelta',
        params: {
          taskId: 'task-1',
          threadId: 't',
          turnId: 'u',
          itemId: 'i',
          delta: 'Hi',
        },
      },
    ]);
  });
});

describe('plugins/updateStatus params', () => {
  it('decode with the notification codec and leave out an unknown version', () => {
    const status = fc.oneof(
      fc.constant({ kind: 'ok' as const }),
      fc.constant({ kind: 'updating' as const }),
      fc.string().map((reason) => ({ kind: 'updateFailed' as const, reason }))
    );
    fc.assert(
      fc.property(fc.string(), status, fc.option(fc.string()), (pluginId, s, version) => {
        const params = pluginsUpdateStatusParams({
          pluginId,
          status: s,
          version,
        });
        expect(E.isRight(decodeHostNotification(PluginsUpdateStatusNotification, params))).toBe(true);
        expect(params).toEqual(version === null ? { pluginId, status: s } : { pluginId, status: s, version });
      })
    );
  });
});
