/**
 * From what the host answered an approval card to the protocol response.
 *
 * - An answer whose label is exactly one the card offered → that option's decision, re-checked:
 *   it must be a protocol decision of the card's method, and a structured decision must carry the
 *   amendment the request proposed (never one built from display text).
 * - `{ action: 'cancel' }` (the host cancelled, or the task is being stopped) → `cancel`, which is
 *   the protocol's "stop the task"; `{ action: 'decline' }` → `decline`.
 * - Anything else (an unknown label, no answer, several answers, a card or decision that does not
 *   check out) → the safe refusal, with a {@link ApprovalAnswerNote} saying why.
 *
 * The safe refusal is `{ decision: 'decline' }` for commands and file changes, and the empty grant
 * `{ permissions: {}, scope: 'turn' }` for permission requests (which have no cancel either: a
 * cancel also grants nothing). So a returned decision is always one the card offered, or `decline`
 * / `cancel`.
 *
 * {@link approvalAnswerMisfit} tells the two kinds of note apart: an answer that does not fit the card
 * (the host can be asked again) and a card or decision that does not check out (refused at once).
 *
 * Every function here is pure: values in, values out. Nothing throws, whatever the input.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  codecs,
  type CommandExecutionRequestApprovalResponse,
  type FileChangeRequestApprovalResponse,
  type PermissionsRequestApprovalResponse,
} from '@wework/codex-protocol';
import type { HostReply } from '@wework/elicitation-mapper';
import { amendmentProblem, type ProposedAmendments } from './ApprovalDecisions.js';
import { DECISION_QUESTION_ID, PERMISSIONS_CHOICES, type ApprovalMethod, type ApprovalRequestCard, type PermissionsChoice } from './ApprovalCards.js';
import { jsonEqual, own } from '@wework/codex-protocol';
import { isRecord } from '@wework/decode-issues';

/** The protocol response of each approval method. */
export interface ApprovalResponses {
  readonly 'item/commandExecution/requestApproval': CommandExecutionRequestApprovalResponse;
  readonly 'item/fileChange/requestApproval': FileChangeRequestApprovalResponse;
  readonly 'item/permissions/requestApproval': PermissionsRequestApprovalResponse;
}

/** Any approval response. */
export type ApprovalResponse = ApprovalResponses[ApprovalMethod];

/** Why an answer was turned into the safe refusal (for the executor's log). */
export interface ApprovalAnswerNote {
  readonly _tag: 'InvalidCard' | 'InvalidReply' | 'MissingAnswer' | 'AmbiguousAnswer' | 'UnknownLabel' | 'InvalidDecision' | 'InvalidAmendment' | 'MismatchedAmendment';
  readonly message: string;
}

/** The response to send, and a note when the answer could not be used as given. */
export interface ApprovalAnswer<R extends ApprovalResponse = ApprovalResponse> {
  readonly response: R;
  readonly note?: ApprovalAnswerNote;
}

const EMPTY_GRANT: PermissionsRequestApprovalResponse = { permissions: {}, scope: 'turn' };

/** The safe refusal of a method: `decline`, or the empty grant for permission requests. */
export function refusalFor<M extends ApprovalMethod>(method: M): ApprovalResponses[M];
export function refusalFor(method: ApprovalMethod): ApprovalResponse {
  return method === 'item/permissions/requestApproval' ? { permissions: {}, scope: 'turn' } : { decision: 'decline' };
}

const cancelFor = (method: ApprovalMethod): ApprovalResponse => (method === 'item/permissions/requestApproval' ? EMPTY_GRANT : { decision: 'cancel' });

type Chosen = E.Either<ApprovalAnswerNote, number>;

/** The index of the option the reply chose: exactly one answer, whose label the card offered. */
function chosenIndex(options: ReadonlyArray<unknown>, reply: Readonly<Record<string, unknown>>): Chosen {
  const answers = own(reply, 'answers');
  if (!isRecord(answers)) return E.left({ _tag: 'InvalidReply', message: 'the reply has neither answers nor an action' });
  const answer = own(answers, DECISION_QUESTION_ID);
  const given: unknown = isRecord(answer) ? own(answer, 'answers') : undefined;
  if (!Array.isArray(given) || given.length === 0) return E.left({ _tag: 'MissingAnswer', message: `no answer to the "${DECISION_QUESTION_ID}" question` });
  if (given.length > 1) return E.left({ _tag: 'AmbiguousAnswer', message: `${given.length} answers to a single-choice question` });
  const label: unknown = given[0];
  const index = options.findIndex((o) => isRecord(o) && typeof label === 'string' && own(o, 'label') === label);
  return index === -1 ? E.left({ _tag: 'UnknownLabel', message: 'the answer is not one of the labels the card offered' }) : E.right(index);
}

function proposedOf(card: Readonly<Record<string, unknown>>): ProposedAmendments | null {
  const proposed = own(card, 'proposed');
  if (!isRecord(proposed)) return null;
  const execpolicy = own(proposed, 'execpolicy');
  const network = own(proposed, 'network');
  const okExec = execpolicy === null || codecs.ExecPolicyAmendment.is(execpolicy);
  const okNetwork = network === null || (Array.isArray(network) && network.every((n) => codecs.NetworkPolicyAmendment.is(n)));
  return okExec && okNetwork ? { execpolicy: execpolicy as ProposedAmendments['execpolicy'], network: network as ProposedAmendments['network'] } : null;
}

function commandResponse(card: Readonly<Record<string, unknown>>, decision: unknown): E.Either<ApprovalAnswerNote, CommandExecutionRequestApprovalResponse> {
  if (!codecs.CommandExecutionApprovalDecisionStrict.is(decision)) return E.left({ _tag: 'InvalidDecision', message: 'the card maps this option to no command decision' });
  if (typeof decision === 'string') return E.right({ decision });
  const proposed = proposedOf(card);
  if (proposed === null) return E.left({ _tag: 'InvalidCard', message: 'the card has no readable proposed amendments' });
  const problem = amendmentProblem(decision, proposed);
  return problem === null ? E.right({ decision }) : E.left(problem);
}

function permissionsResponse(card: Readonly<Record<string, unknown>>, choice: unknown): E.Either<ApprovalAnswerNote, PermissionsRequestApprovalResponse> {
  if (!(PERMISSIONS_CHOICES as ReadonlyArray<unknown>).includes(choice)) return E.left({ _tag: 'InvalidDecision', message: 'the card maps this option to no permission choice' });
  const grant = own(card, 'grant');
  const requested = own(card, 'requested');
  if (!codecs.GrantedPermissionProfile.is(grant) || !codecs.RequestPermissionProfile.is(requested)) return E.left({ _tag: 'InvalidCard', message: 'the card has no readable grant' });
  // The grant must be exactly the requested parts (a card altered after it was built grants nothing).
  const net = requested.network ?? undefined;
  const fs = requested.fileSystem ?? undefined;
  if (!jsonEqual(grant.network, net) || !jsonEqual(grant.fileSystem, fs)) {
    return E.left({ _tag: 'InvalidCard', message: 'the card grants something other than what was requested' });
  }
  switch (choice as PermissionsChoice) {
    case 'allowForTurn':
      return E.right({ permissions: grant, scope: 'turn' });
    case 'allowForSession':
      return E.right({ permissions: grant, scope: 'session' });
    case 'reviewEachCommand':
      return E.right({ permissions: grant, scope: 'turn', strictAutoReview: true });
    case 'deny':
      return E.right(EMPTY_GRANT);
  }
}

function answer(card: Readonly<Record<string, unknown>>, method: ApprovalMethod, reply: Readonly<Record<string, unknown>>): E.Either<ApprovalAnswerNote, ApprovalResponse> {
  const questions = own(card, 'questions');
  const decisions = own(card, 'decisions');
  const first: unknown = Array.isArray(questions) ? questions[0] : undefined;
  const options: unknown = isRecord(first) ? own(first, 'options') : undefined;
  if (!Array.isArray(options) || !Array.isArray(decisions) || options.length !== decisions.length) {
    return E.left({ _tag: 'InvalidCard', message: 'the card does not pair each option with a decision' });
  }
  const index = chosenIndex(options, reply);
  if (E.isLeft(index)) return index;
  const decision: unknown = decisions[index.right];
  switch (method) {
    case 'item/commandExecution/requestApproval':
      return commandResponse(card, decision);
    case 'item/fileChange/requestApproval':
      return codecs.FileChangeApprovalDecision.is(decision)
        ? E.right({ decision })
        : E.left({ _tag: 'InvalidDecision', message: 'the card maps this option to no file-change decision' });
    case 'item/permissions/requestApproval':
      return permissionsResponse(card, decision);
  }
}

const METHOD_OF_TAG: Readonly<Record<string, ApprovalMethod>> = {
  CommandApprovalCard: 'item/commandExecution/requestApproval',
  FileChangeApprovalCard: 'item/fileChange/requestApproval',
  PermissionsApprovalCard: 'item/permissions/requestApproval',
};

/**
 * The protocol response for an approval card the host answered, typed by the card's method, and a
 * note when the answer was not usable as given (the response is then the safe refusal).
 *
 * @example
 * ```ts
 * responseForApprovalCard(card, { answers: { decision: { answers: ['Run once'] } } }); // { response: { decision: 'accept' } }
 * responseForApprovalCard(card, { answers: { decision: { answers: ['Run it'] } } });
 * // { response: { decision: 'decline' }, note: { _tag: 'UnknownLabel', ... } }
 * responseForApprovalCard(card, { action: 'cancel' }); // { response: { decision: 'cancel' } }
 * ```
 */
export function responseForApprovalCard<C extends ApprovalRequestCard>(card: C, reply: HostReply): ApprovalAnswer<ApprovalResponses[C['method']]>;
export function responseForApprovalCard(card: unknown, reply: unknown): ApprovalAnswer {
  const tag = isRecord(card) ? own(card, '_tag') : undefined;
  const method = typeof tag === 'string' ? METHOD_OF_TAG[tag] : undefined;
  if (!isRecord(card) || method === undefined || own(card, 'method') !== method) {
    return { response: { decision: 'decline' }, note: { _tag: 'InvalidCard', message: 'not an approval card' } };
  }
  if (!isRecord(reply)) return { response: refusalFor(method), note: { _tag: 'InvalidReply', message: 'the reply is not an object' } };
  const action = own(reply, 'action');
  if (action === 'cancel') return { response: cancelFor(method) };
  if (action === 'decline') return { response: refusalFor(method) };
  const response = answer(card, method, reply);
  return E.isRight(response) ? { response: response.right } : { response: refusalFor(method), note: response.left };
}

/** Notes about the host's answer itself; the others are about a card or decision that does not check out. */
const MISFIT_TAGS: ReadonlyArray<ApprovalAnswerNote['_tag']> = ['InvalidReply', 'MissingAnswer', 'AmbiguousAnswer', 'UnknownLabel'];

/**
 * Why the host's reply does not fit the approval card — no answer, several answers, a label the card
 * did not offer, a reply that is neither answers nor an action — or `null` when it fits (or when the
 * card itself does not check out: then the safe refusal is sent at once, asking again would not help).
 * An executor shows the card again with the note's message instead of declining silently.
 * @example
 * ```ts
 * approvalAnswerMisfit(card, { answers: { decision: { answers: ['Run it'] } } }); // { _tag: 'UnknownLabel', message: '...' }
 * approvalAnswerMisfit(card, { answers: { decision: { answers: ['Run once'] } } }); // null
 * ```
 */
export function approvalAnswerMisfit(card: ApprovalRequestCard, reply: unknown): ApprovalAnswerNote | null {
  const { note } = responseForApprovalCard(card, reply as HostReply);
  return note !== undefined && MISFIT_TAGS.includes(note._tag) ? note : null;
}
