/**
 * Forward compatibility: real messages of the pinned `codex app-server` (the golden fixtures),
 * patched to carry what a newer Codex may add (an enum literal, a tagged-union variant), still
 * decode as a whole: the known fields intact, the unknown part typed, `unknownParts` naming it,
 * and encoding gives back what was received.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as t from 'io-ts';
import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  ItemCommandExecutionRequestApproval,
  ItemCompleted,
  TurnCompleted,
  codecs,
  decodeServerNotification,
  decodeServerRequest,
  isKnownLiteral,
  isUnknownVariant,
  OpenKeyofType,
  OpenUnionType,
  unknownParts,
  type CommandExecutionApprovalDecision,
  type ThreadItem,
  type TurnStatus,
  type UnknownLiteral,
  type UnknownVariant,
  type UserInput,
} from '../src/index.js';

interface Golden {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

const golden = (path: string): Golden => JSON.parse(readFileSync(fileURLToPath(new URL(`./fixtures/golden/${path}`, import.meta.url)), 'utf8')) as Golden;
/** A deep copy of a golden with one change applied to its params (read as JSON of any shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- patching captured JSON in place
const patched = (path: string, patch: (params: any) => void): Golden => {
  const copy = structuredClone(golden(path));
  patch(copy.params);
  return copy;
};

describe('a new enum literal', () => {
  test('a turn/completed whose TurnStatus is new decodes whole, typed, and encodes back', () => {
    const message = patched('server-notifications/turn.completed.json', (p) => (p.turn.status = 'paused'));
    const decoded = decodeServerNotification(message.method, message.params);
    if (E.isLeft(decoded) || decoded.right.method !== TurnCompleted.method) return expect.fail('turn/completed did not decode');
    const { turn } = decoded.right.params;
    expectTypeOf(turn.status).toEqualTypeOf<TurnStatus>();
    expectTypeOf<TurnStatus>().toEqualTypeOf<'completed' | 'interrupted' | 'failed' | 'inProgress' | UnknownLiteral>();
    expect(turn.status).toBe('paused');
    expect(isKnownLiteral(codecs.TurnStatus, turn.status)).toBe(false);
    expect(turn.items[0]).toMatchObject({ type: 'agentMessage', id: 'msg_1', text: 'Hello from the scripted model.' });
    expect(turn.durationMs).toBe(1135);
    expect(unknownParts(TurnCompleted.params, decoded.right.params)).toEqual([{ kind: 'literal', path: '$.turn.status', codec: 'TurnStatus', literal: 'paused' }]);
    expect(TurnCompleted.params.encode(decoded.right.params)).toEqual(message.params);
  });

  test('a command approval advertising a new CommandExecutionApprovalDecision decodes whole, the rest intact', () => {
    const message = patched('server-requests/item.commandExecution.requestApproval.json', (p) => p.availableDecisions.splice(1, 0, 'acceptWithSandboxEscalation'));
    const decoded = decodeServerRequest(message.method, message.params);
    if (E.isLeft(decoded) || decoded.right.method !== ItemCommandExecutionRequestApproval.method) return expect.fail('the approval request did not decode');
    const params = decoded.right.params;
    expectTypeOf(params.availableDecisions).toEqualTypeOf<CommandExecutionApprovalDecision[] | null | undefined>();
    expectTypeOf<UnknownLiteral>().toExtend<CommandExecutionApprovalDecision>();
    expect(params.availableDecisions).toEqual(message.params['availableDecisions']);
    expect(params.command).toBe("/bin/bash -lc 'echo golden'");
    expect(params.proposedExecpolicyAmendment).toEqual(['echo', 'golden']);
    expect(unknownParts(ItemCommandExecutionRequestApproval.params, params)).toEqual([
      { kind: 'literal', path: '$.availableDecisions[1]', codec: 'CommandExecutionApprovalDecision', literal: 'acceptWithSandboxEscalation' },
    ]);
    expect(ItemCommandExecutionRequestApproval.params.encode(params)).toEqual(message.params);
    // What we send back stays strict: the new decision is no decision we can answer with.
    expect(codecs.CommandExecutionApprovalDecisionStrict.is('acceptWithSandboxEscalation')).toBe(false);
    expect(E.isLeft(codecs.CommandExecutionRequestApprovalResponse.decode({ decision: 'acceptWithSandboxEscalation' }))).toBe(true);
  });
});

describe('a new union variant', () => {
  test('a turn/completed carrying a new ThreadItem type decodes whole; the new item is typed unknown and kept as received', () => {
    const hologram = { type: 'hologram', id: 'holo_1', depth: 3, startedAtMs: 1, completedAtMs: 2 };
    const message = patched('server-notifications/turn.completed.json', (p) => p.turn.items.push(hologram));
    const decoded = decodeServerNotification(message.method, message.params);
    if (E.isLeft(decoded) || decoded.right.method !== TurnCompleted.method) return expect.fail('turn/completed did not decode');
    const [known, added] = decoded.right.params.turn.items;
    expect(known).toMatchObject({ type: 'agentMessage', id: 'msg_1', text: 'Hello from the scripted model.' });
    if (added === undefined || !isUnknownVariant(added)) return expect.fail('the new item is not an unknown variant');
    expectTypeOf(added).toExtend<UnknownVariant<'type'>>();
    expect(added).toMatchObject({ _unknown: true, tag: 'type', literal: 'hologram', raw: hologram });
    expect(added.type).toBeUndefined();
    expect(unknownParts(TurnCompleted.params, decoded.right.params)).toEqual([{ kind: 'variant', path: '$.turn.items[1].type', codec: 'ThreadItem', literal: 'hologram' }]);
    expect(TurnCompleted.params.encode(decoded.right.params)).toEqual(message.params);
  });

  test('a user message with a new UserInput type decodes whole; switching on the type leaves the unknown case to handle', () => {
    const video = { type: 'video', url: 'https://example.invalid/v.mp4' };
    const message = patched('server-notifications/item.completed.userMessage.json', (p) => p.item.content.push(video));
    const decoded = decodeServerNotification(message.method, message.params);
    if (E.isLeft(decoded) || decoded.right.method !== ItemCompleted.method) return expect.fail('item/completed did not decode');
    const item: ThreadItem = decoded.right.params.item;
    if (item.type !== 'userMessage') return expect.fail('not the user message');
    const describe = (input: UserInput): string => {
      switch (input.type) {
        case 'text':
          return input.text;
        case undefined:
          expectTypeOf(input).toExtend<UnknownVariant<'type'>>();
          return `unknown ${input.literal}`;
        default:
          return input.type;
      }
    };
    expect(item.content.map(describe)).toEqual(['golden:hello', 'unknown video']);
    expect(unknownParts(ItemCompleted.params, decoded.right.params)).toEqual([{ kind: 'variant', path: '$.item.content[1].type', codec: 'UserInput', literal: 'video' }]);
    expect(ItemCompleted.params.encode(decoded.right.params)).toEqual(message.params);
    // What we send stays strict: the new input type cannot go into turn/start.
    expect(codecs.UserInputStrict.is(video)).toBe(false);
  });

  test('an unknown variant whose tag is not a string, or a known variant that does not match, still fails', () => {
    const broken = patched('server-notifications/turn.completed.json', (p) => p.turn.items.push({ type: 7, id: 'x' }));
    expect(E.isLeft(decodeServerNotification(broken.method, broken.params))).toBe(true);
    const mismatched = patched('server-notifications/turn.completed.json', (p) => (p.turn.items[0].text = 42));
    expect(E.isLeft(decodeServerNotification(mismatched.method, mismatched.params))).toBe(true);
    const notAString = patched('server-notifications/turn.completed.json', (p) => (p.turn.status = 3));
    expect(E.isLeft(decodeServerNotification(notAString.method, notAString.params))).toBe(true);
  });
});

/** Every open enum and open tagged union among the generated codecs. */
const openCodecs = Object.getOwnPropertyNames(codecs).map((name) => [name, (codecs as unknown as Record<string, t.Mixed>)[name]] as const);
const openEnums = openCodecs.filter((entry): entry is readonly [string, OpenKeyofType<Record<string, unknown>>] => entry[1] instanceof OpenKeyofType);
const openUnions = openCodecs.filter((entry): entry is readonly [string, OpenUnionType<string, [t.Mixed, t.Mixed]>] => entry[1] instanceof OpenUnionType);

describe('every open codec', () => {
  test('there are open enums and unions, and their strict twins are not open', () => {
    expect(openEnums.map(([name]) => name)).toContain('TurnStatus');
    expect(openUnions.length).toBeGreaterThan(0);
    expect(openCodecs.filter(([name]) => name.endsWith('Strict')).every(([, codec]) => !(codec instanceof OpenKeyofType) && !(codec instanceof OpenUnionType))).toBe(true);
  });

  test.each(openEnums)('%s: any string not in the known set decodes to the unknown case, every known literal to itself', (_name, codec) => {
    const known = Object.keys(codec.keys);
    for (const literal of known) {
      expect(codec.decode(literal)).toEqual(E.right(literal));
      expect(isKnownLiteral(codec, literal)).toBe(true);
    }
    fc.assert(
      fc.property(
        fc.string().filter((s) => !known.includes(s)),
        (literal) => {
          expect(codec.decode(literal)).toEqual(E.right(literal));
          expect(isKnownLiteral(codec, literal)).toBe(false);
          expect(codec.encode(literal as UnknownLiteral)).toBe(literal);
          expect(unknownParts(codec, literal)).toEqual([{ kind: 'literal', path: '$', codec: codec.name, literal }]);
        },
      ),
      { numRuns: 50 },
    );
  });

  test.each(openUnions)('%s: an object with an unknown tag decodes to the unknown variant and encodes back unchanged', (_name, codec) => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !codec.known.includes(s)),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }).filter((k) => k !== '__proto__'), fc.jsonValue({ maxDepth: 1 })),
        (literal, rest) => {
          const raw = { ...rest, [codec.tag]: literal };
          const decoded = codec.decode(raw);
          if (E.isLeft(decoded)) return expect.fail('an unknown tag did not decode');
          expect(decoded.right).toEqual({ _unknown: true, tag: codec.tag, literal, raw });
          expect(codec.encode(decoded.right)).toBe(raw);
        },
      ),
      { numRuns: 30 },
    );
  });
});
