import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codecs } from '@wework/codex-protocol';
import type { HostReply } from '@wework/elicitation-mapper';
import { approvalCard, handleApprovalRequest, responseForApprovalCard, type ApprovalRequestCard } from '../src/index.js';
import type { CommandApprovalCard, PermissionsApprovalCard } from '../src/ApprovalCards.js';
import { approvalRequestArbitrary, commandApprovalParamsArbitrary, permissionsApprovalParamsArbitrary } from '../src/testing.js';

const realCommand = JSON.parse(readFileSync(new URL('./fixtures/command-approval.json', import.meta.url), 'utf8')) as { params: unknown };
const cardOf = (method: string, params: unknown): ApprovalRequestCard => {
  const card = approvalCard(method, params);
  if (E.isLeft(card)) throw new Error(card.left.message);
  return card.right;
};
const choose = (label: string): HostReply => ({ answers: { decision: { answers: [label] } } });
const jsonEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const RESPONSE_CODECS = {
  'item/commandExecution/requestApproval': codecs.CommandExecutionRequestApprovalResponse,
  'item/fileChange/requestApproval': codecs.FileChangeRequestApprovalResponse,
  'item/permissions/requestApproval': codecs.PermissionsRequestApprovalResponse,
} as const;

describe('responseForApprovalCard: commands', () => {
  const card = cardOf('item/commandExecution/requestApproval', realCommand.params) as CommandApprovalCard;

  it('maps each offered label to its exact protocol decision', () => {
    expect(responseForApprovalCard(card, choose('Run once'))).toEqual({ response: { decision: 'accept' } });
    expect(responseForApprovalCard(card, choose('Always allow commands starting with "touch x"'))).toEqual({
      response: { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch', 'x'] } } },
    });
    expect(responseForApprovalCard(card, choose('Stop the task'))).toEqual({ response: { decision: 'cancel' } });
  });

  it('maps a host cancel to cancel (stop the task) and a host decline to decline, advertised or not', () => {
    expect(responseForApprovalCard(card, { action: 'cancel' })).toEqual({ response: { decision: 'cancel' } });
    expect(responseForApprovalCard(card, { action: 'decline' })).toEqual({ response: { decision: 'decline' } });
  });

  it('declines safely, with a note, anything that is not exactly one offered label', () => {
    const cases: ReadonlyArray<[unknown, string]> = [
      [choose('run once'), 'UnknownLabel'],
      [choose('Run once '), 'UnknownLabel'],
      [choose('accept'), 'UnknownLabel'],
      [{ answers: { decision: { answers: ['Run once', 'Stop the task'] } } }, 'AmbiguousAnswer'],
      [{ answers: { decision: { answers: [] } } }, 'MissingAnswer'],
      [{ answers: { other: { answers: ['Run once'] } } }, 'MissingAnswer'],
      [{ answers: {} }, 'MissingAnswer'],
      [{ action: 'accept' }, 'InvalidReply'],
      [null, 'InvalidReply'],
    ];
    for (const [reply, tag] of cases) {
      expect(responseForApprovalCard(card, reply as HostReply), JSON.stringify(reply)).toEqual({ response: { decision: 'decline' }, note: { _tag: tag, message: expect.any(String) } });
    }
  });

  it('declines an amendment that was altered after the card was built (never derives authority from the label)', () => {
    const broader = { ...card, decisions: card.decisions.map((d) => (typeof d === 'object' ? { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } } : d)) };
    expect(responseForApprovalCard(broader, choose('Always allow commands starting with "touch x"'))).toEqual({
      response: { decision: 'decline' },
      note: { _tag: 'MismatchedAmendment', message: expect.any(String) },
    });
    const empty = { ...card, decisions: card.decisions.map((d) => (typeof d === 'object' ? { acceptWithExecpolicyAmendment: { execpolicy_amendment: [] } } : d)) };
    expect(responseForApprovalCard(empty, choose('Always allow commands starting with "touch x"')).note?._tag).toBe('InvalidAmendment');
    const missing = { ...card, decisions: card.decisions.map((d) => (typeof d === 'object' ? { acceptWithExecpolicyAmendment: {} } : d)) } as unknown as CommandApprovalCard;
    expect(responseForApprovalCard(missing, choose('Always allow commands starting with "touch x"')).note?._tag).toBe('InvalidDecision');
    const short = { ...card, decisions: card.decisions.slice(1) };
    expect(responseForApprovalCard(short, choose('Run once')).note?._tag).toBe('InvalidCard');
  });

  it('survives a JSON round trip of the card (a stored card answers the same)', () => {
    const stored = JSON.parse(JSON.stringify(card)) as CommandApprovalCard;
    for (const option of card.questions[0].options) expect(responseForApprovalCard(stored, choose(option.label))).toEqual(responseForApprovalCard(card, choose(option.label)));
  });
});

describe('responseForApprovalCard: file changes and permissions', () => {
  it('maps file-change labels, cancel and decline', () => {
    const card = cardOf('item/fileChange/requestApproval', { threadId: 't', turnId: 'u', itemId: 'i', startedAtMs: 0 });
    expect(responseForApprovalCard(card, choose('Apply the changes'))).toEqual({ response: { decision: 'accept' } });
    expect(responseForApprovalCard(card, choose("Don't apply"))).toEqual({ response: { decision: 'decline' } });
    expect(responseForApprovalCard(card, { action: 'cancel' })).toEqual({ response: { decision: 'cancel' } });
    expect(responseForApprovalCard(card, choose('Allow changes for this session'))).toMatchObject({ response: { decision: 'decline' }, note: { _tag: 'UnknownLabel' } });
  });

  const permissions = { network: { enabled: true }, fileSystem: { read: null, write: ['/repo/dist'] } };
  const card = cardOf('item/permissions/requestApproval', { threadId: 't', turnId: 'u', itemId: 'i', environmentId: null, startedAtMs: 0, cwd: '/repo', reason: null, permissions }) as PermissionsApprovalCard;

  it('grant exactly the requested permissions for the turn or the session, or with review of each command', () => {
    expect(responseForApprovalCard(card, choose('Allow for this turn'))).toEqual({ response: { permissions, scope: 'turn' } });
    expect(responseForApprovalCard(card, choose('Allow for this session'))).toEqual({ response: { permissions, scope: 'session' } });
    expect(responseForApprovalCard(card, choose('Review each command this turn'))).toEqual({ response: { permissions, scope: 'turn', strictAutoReview: true } });
  });

  it('grant nothing on deny, cancel, decline or an unusable answer', () => {
    const empty = { permissions: {}, scope: 'turn' };
    expect(responseForApprovalCard(card, choose('Deny'))).toEqual({ response: empty });
    expect(responseForApprovalCard(card, { action: 'cancel' })).toEqual({ response: empty });
    expect(responseForApprovalCard(card, { action: 'decline' })).toEqual({ response: empty });
    expect(responseForApprovalCard(card, choose('Allow'))).toMatchObject({ response: empty, note: { _tag: 'UnknownLabel' } });
    const widened = { ...card, grant: { ...card.grant, fileSystem: { read: ['/'], write: ['/'] } } };
    expect(responseForApprovalCard(widened, choose('Allow for this session'))).toMatchObject({ response: empty, note: { _tag: 'InvalidCard' } });
  });

  it('grant only requested parts for any request, as a valid protocol response', () => {
    fc.assert(
      fc.property(permissionsApprovalParamsArbitrary, (params) => {
        const permissionsCard = cardOf('item/permissions/requestApproval', params) as PermissionsApprovalCard;
        for (const option of permissionsCard.questions[0].options) {
          const { response, note } = responseForApprovalCard(permissionsCard, choose(option.label));
          expect(note).toBeUndefined();
          expect(E.isRight(codecs.PermissionsRequestApprovalResponse.decode(response))).toBe(true);
          const granted = response.permissions;
          if (granted.network !== undefined) expect(granted.network).toEqual(params.permissions.network);
          if (granted.fileSystem !== undefined) expect(granted.fileSystem).toEqual(params.permissions.fileSystem);
          if (params.permissions.network === null) expect(granted).not.toHaveProperty('network');
          if (params.permissions.fileSystem === null) expect(granted).not.toHaveProperty('fileSystem');
        }
      }),
    );
  });
});

describe('approval card laws (any request)', () => {
  it('offer only advertised decisions, in order, with unique labels; each label round-trips to its decision', () => {
    fc.assert(
      fc.property(commandApprovalParamsArbitrary, (params) => {
        const decision = handleApprovalRequest('item/commandExecution/requestApproval', params);
        const advertised = params['availableDecisions'];
        if (decision._tag !== 'ShowCard') {
          expect(decision).toMatchObject({ _tag: 'Respond', response: { decision: 'decline' } });
          return;
        }
        const card = decision.card as CommandApprovalCard;
        const options = card.questions[0].options;
        expect(new Set(options.map((o) => o.label)).size).toBe(options.length);
        expect(card.decisions.length).toBe(options.length);
        if (Array.isArray(advertised)) {
          // a subsequence of availableDecisions: same order, nothing added
          let from = 0;
          for (const offered of card.decisions) {
            const at = advertised.findIndex((entry, i) => i >= from && jsonEqual(entry, offered));
            expect(at).toBeGreaterThanOrEqual(0);
            from = at + 1;
          }
        } else {
          expect(card.decisions).toEqual(['accept', 'decline', 'cancel']);
        }
        options.forEach((option, i) => {
          expect(responseForApprovalCard(card, choose(option.label))).toEqual({ response: { decision: card.decisions[i] } });
        });
      }),
    );
  });

  it('return only advertised decisions or the safe fallbacks decline / cancel, whatever the host answers', () => {
    const replyArbitrary = (labels: ReadonlyArray<string>): fc.Arbitrary<unknown> =>
      fc.oneof(
        labels.length > 0 ? fc.constantFrom(...labels).map(choose) : fc.constant(choose('x')),
        fc.constantFrom({ action: 'cancel' }, { action: 'decline' }, { action: 'accept' }),
        fc.string({ maxLength: 12 }).map(choose),
        fc.jsonValue(),
      );
    fc.assert(
      fc.property(
        approvalRequestArbitrary.chain(({ method, params }) => {
          const decision = handleApprovalRequest(method, params);
          const labels = decision._tag === 'ShowCard' ? decision.card.questions[0].options.map((o) => o.label) : [];
          return fc.record({ method: fc.constant(method), params: fc.constant(params), decision: fc.constant(decision), reply: replyArbitrary(labels) });
        }),
        ({ method, params, decision, reply }) => {
          const response = decision._tag === 'ShowCard' ? responseForApprovalCard(decision.card, reply as HostReply).response : decision._tag === 'Respond' ? decision.response : null;
          expect(response).not.toBeNull();
          expect((RESPONSE_CODECS[method] as { is: (u: unknown) => boolean }).is(response)).toBe(true);
          if (method === 'item/permissions/requestApproval' || response === null || !('decision' in response)) return;
          const returned = response.decision;
          if (returned === 'decline' || returned === 'cancel') return;
          const advertised = (params as Record<string, unknown>)['availableDecisions'];
          const allowed = Array.isArray(advertised) ? advertised : ['accept', 'decline', 'cancel'];
          expect(allowed.some((entry) => jsonEqual(entry, returned))).toBe(true);
        },
      ),
    );
  });

  it('never throw on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('item/commandExecution/requestApproval', 'item/fileChange/requestApproval', 'item/permissions/requestApproval'), fc.jsonValue()), fc.jsonValue(), fc.jsonValue(), (method, params, reply) => {
        const decision = handleApprovalRequest(method as string, params);
        approvalCard(method, params);
        if (decision._tag === 'ShowCard') responseForApprovalCard(decision.card, reply as HostReply);
        responseForApprovalCard(params as unknown as ApprovalRequestCard, reply as HostReply);
      }),
      { numRuns: 300 },
    );
  });
});
