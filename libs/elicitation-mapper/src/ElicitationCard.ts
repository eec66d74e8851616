/**
 * Elicitation request → card: the params of a Codex `mcpServer/elicitation/request` or of a plain
 * MCP `elicitation/create` request (any JSON) become a {@link FormCard}, a {@link ToolApprovalCard},
 * a {@link UrlCard} (URL mode), or an {@link Unsupported} reason (answered with decline).
 *
 * Every function here is pure: JSON in, a card or a `_tag`ged error out.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as O from 'fp-ts/lib/Option.js';
import type { Card, FormCard, FormQuestion, UrlCard } from './Card.js';
import { decodeElicitation, type ElicitationRequest, type UrlElicitationRequest } from './ElicitationRequest.js';
import { urlCardOf } from './UrlElicitation.js';
import { schemaToQuestions } from './SchemaMapping.js';
import { toolApprovalCard } from './ToolApproval.js';
import { invalidRequest, type Unsupported } from './Unsupported.js';
import { isRecord } from '@wework/decode-issues';
import { describeValue } from './internal/json.js';

/** The spec's "selecting an option submits immediately": one question, answered with one click. */
const submitsOnSelect = (questions: ReadonlyArray<FormQuestion>): boolean => {
  if (questions.length !== 1) return false;
  const type = questions[0]?.answerType;
  return type === 'singleChoice' || type === 'boolean';
};

/**
 * Maps an elicitation request to a card.
 * @example
 * ```ts
 * const card = elicitationToCard({
 *   mode: 'form',
 *   message: 'Choose a deployment target',
 *   requestedSchema: {
 *     type: 'object',
 *     properties: { target: { type: 'string', title: 'Deployment target', oneOf: [{ const: 'staging', title: 'Staging' }, { const: 'production', title: 'Production' }] } },
 *     required: ['target'],
 *   },
 * });
 * // Right({ _tag: 'FormCard', message: 'Choose a deployment target', submitOnSelect: true,
 * //   questions: [{ id: 'target', header: 'Deployment target', options: [{ label: 'Staging', ... }, { label: 'Production', ... }],
 * //                 values: ['staging', 'production'], defaultIndex: 0, answerType: 'singleChoice', required: true, ... }] })
 * ```
 */
export function elicitationToCard(params: unknown): E.Either<Unsupported, Card> {
  const request = decodeElicitation(params);
  if (E.isLeft(request)) return request;
  return request.right.mode === 'url' ? urlCardForRequest(request.right) : cardForRequest(request.right);
}

/** The card of a URL-mode request whose envelope is read: its link checked (`checkElicitationUrl`). */
export function urlCardForRequest(request: UrlElicitationRequest): E.Either<Unsupported, UrlCard> {
  if (!isRecord(request) || !isRecord(request.params)) return E.left(invalidRequest('request', 'object', describeValue(request)));
  return urlCardOf(request.source, request.params);
}

/**
 * The card of an elicitation request whose envelope is already read ({@link decodeElicitationRequest}, or
 * `codexElicitationRequest` for params Codex's codec decoded): a tool approval, or the form of its schema.
 */
export function cardForRequest(request: ElicitationRequest): E.Either<Unsupported, Card> {
  if (!isRecord(request)) return E.left(invalidRequest('request', 'object', describeValue(request)));
  const approval = toolApprovalCard(request);
  if (O.isSome(approval)) return approval.value;
  const questions = schemaToQuestions(request.requestedSchema);
  if (E.isLeft(questions)) return questions;
  const card: FormCard = {
    _tag: 'FormCard',
    source: request.source,
    mode: request.mode,
    message: request.message,
    questions: questions.right,
    submitOnSelect: submitsOnSelect(questions.right),
  };
  return E.right(card);
}
