/**
 * The scripted user: answers the cards (server requests) Codex sends during a scenario, from the
 * scenario's ordered answers, its answers by question id, or its `otherwise` policy.
 *
 * Every function here is pure: the request and what has been consumed in, the response out.
 */
import { Methods } from '@wework/codex-protocol';
import type { AnswerSpec, Otherwise, UserSpec } from './Scenario.js';
import { isRecord } from '@wework/decode-issues';

/** A server request as it reached the harness (params already decoded by the client). */
export interface CardRequest {
  readonly method: string;
  readonly params: unknown;
}

/** Where an answer came from. */
export type AnswerSource =
  | { readonly _tag: 'Ordered'; readonly index: number }
  | { readonly _tag: 'ByQuestionId' }
  | { readonly _tag: 'Otherwise'; readonly policy: Otherwise; readonly unscripted: boolean };

/** The scripted user's answer to one card. */
export interface CardAnswer {
  /** The response to send (the protocol's result for that method). */
  readonly response: Readonly<Record<string, unknown>>;
  readonly source: AnswerSource;
  /** Set when the scripted answer did not fit the card; the run fails with this message. */
  readonly problem?: string;
}

/** The question ids a card asks: form property keys, or requestUserInput question ids. */
export function questionIds(request: CardRequest): ReadonlyArray<string> {
  const params = isRecord(request.params) ? request.params : {};
  if (request.method === Methods.McpServerElicitationRequest) {
    const schema = isRecord(params['requestedSchema']) ? params['requestedSchema'] : {};
    return isRecord(schema['properties']) ? Object.keys(schema['properties']) : [];
  }
  if (request.method === Methods.ItemToolRequestUserInput && Array.isArray(params['questions'])) {
    return params['questions'].flatMap((q: unknown) => (isRecord(q) && typeof q['id'] === 'string' ? [q['id']] : []));
  }
  return [];
}

const isCard = (method: string): boolean => method === Methods.McpServerElicitationRequest || method === Methods.ItemToolRequestUserInput;

function matches(answer: AnswerSpec, request: CardRequest): boolean {
  if (answer.method !== undefined && answer.method !== request.method) return false;
  if (answer.serverName !== undefined) {
    const params = isRecord(request.params) ? request.params : {};
    if (params['serverName'] !== answer.serverName) return false;
  }
  return true;
}

const toStrings = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) : [typeof value === 'string' ? value : JSON.stringify(value)];

/** Builds the response for a card from an action and question-id values. */
function respondToCard(request: CardRequest, action: 'accept' | 'decline' | 'cancel', values: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  if (request.method === Methods.McpServerElicitationRequest) {
    return action === 'accept' ? { action, content: values, _meta: null } : { action, content: null, _meta: null };
  }
  // item/tool/requestUserInput has no decline/cancel: an empty answer set is "no usable answer".
  const answers = action === 'accept' ? Object.fromEntries(Object.entries(values).map(([id, v]) => [id, { answers: toStrings(v) }])) : {};
  return { answers };
}

type Decision = string | Readonly<Record<string, unknown>>;

/** Builds the response for an approval request from a decision. */
function respondToApproval(request: CardRequest, decision: Decision): Readonly<Record<string, unknown>> {
  if (request.method === Methods.ItemPermissionsRequestApproval) {
    const params = isRecord(request.params) ? request.params : {};
    const granted = decision === 'accept' || decision === 'acceptForSession';
    return { permissions: granted && isRecord(params['permissions']) ? params['permissions'] : {}, scope: decision === 'acceptForSession' ? 'session' : 'turn' };
  }
  return { decision };
}

const actionToDecision = { accept: 'accept', decline: 'decline', cancel: 'cancel' } as const;

function fromOrdered(answer: AnswerSpec, request: CardRequest, index: number): CardAnswer {
  const source: AnswerSource = { _tag: 'Ordered', index };
  if (answer.respond !== undefined) return { response: answer.respond, source };
  if (isCard(request.method)) {
    if (answer.decision !== undefined && answer.action === undefined && answer.answers === undefined && answer.content === undefined) {
      return { response: respondToCard(request, 'cancel', {}), source, problem: `answer #${index + 1} is a decision, but ${request.method} is a card; it was cancelled` };
    }
    const action = answer.action ?? 'accept';
    return { response: respondToCard(request, action, answer.content ?? answer.answers ?? {}), source };
  }
  const decision: Decision | undefined = answer.decision ?? (answer.action === undefined ? undefined : actionToDecision[answer.action]);
  if (decision === undefined) {
    return { response: respondToApproval(request, 'cancel'), source, problem: `answer #${index + 1} has no decision for ${request.method}; it was cancelled` };
  }
  return { response: respondToApproval(request, decision), source };
}

/**
 * Answers one card. Ordered answers are consumed first (the first unconsumed one whose `method` and
 * `serverName` filters match); then a card whose every question id is in `byQuestionId` is accepted
 * with those values; otherwise the `otherwise` policy applies (`fail`, the default, cancels and marks
 * the run failed, so an unexpected card never passes unnoticed).
 *
 * @returns the answer and the index of the ordered answer it consumed, if any.
 */
export function answerCard(user: UserSpec | undefined, consumed: ReadonlySet<number>, request: CardRequest): CardAnswer {
  const answers = user?.answers ?? [];
  const index = answers.findIndex((answer, i) => !consumed.has(i) && matches(answer, request));
  const ordered = index >= 0 ? answers[index] : undefined;
  if (ordered !== undefined) return fromOrdered(ordered, request, index);

  const ids = questionIds(request);
  const byId = user?.byQuestionId ?? {};
  if (isCard(request.method) && ids.length > 0 && ids.every((id) => id in byId)) {
    return { response: respondToCard(request, 'accept', Object.fromEntries(ids.map((id) => [id, byId[id]]))), source: { _tag: 'ByQuestionId' } };
  }

  const policy = user?.otherwise ?? 'fail';
  const action = policy === 'decline' ? 'decline' : 'cancel';
  const response = isCard(request.method) ? respondToCard(request, action, {}) : respondToApproval(request, actionToDecision[action]);
  const source: AnswerSource = { _tag: 'Otherwise', policy, unscripted: true };
  return policy === 'fail' ? { response, source, problem: `no scripted answer for ${request.method} (question ids: ${ids.join(', ') || 'none'}); it was cancelled` } : { response, source };
}
