/**
 * The refused-answer rule of a card: an answer that does not fit its card is not mapped to a cancel the
 * user never chose; the card is shown again with the refusal (the field and the problem), at most
 * {@link CARD_SHOWS} times in all, after which the request gets its fallback (cancel for forms and input
 * requests, decline for execution approvals). A host session only sends a card and receives an answer;
 * this step decides what follows.
 *
 * Every function here is pure: values in, values out.
 */
import type * as E from 'fp-ts/lib/Either.js';
import { isRecord } from '@wework/decode-issues';

/** How often one card is shown at most: the first time, and again after each refused answer. */
export const CARD_SHOWS = 3;

/** Why an answer was refused: the question it is in (`null`: the answer as a whole), the problem's tag and a sentence that never quotes the host's text. */
export interface CardRefusal {
  readonly questionId: string | null;
  readonly problem: string;
  readonly message: string;
}

/** What follows a host's answer: respond to the request, or show the card again with the refusal. */
export type CardShowStep<R> =
  | { readonly _tag: 'Respond'; readonly response: R; readonly refusedTooOften: boolean }
  | { readonly _tag: 'ShowAgain'; readonly error: CardRefusal & { readonly attemptsLeft: number } };

/**
 * The step after show number `show` (1 for the first) was answered: the checked answer's response, or the
 * card again with its refusal while shows are left (and the request is still waiting), else `fallback`.
 * @example
 * ```ts
 * nextCardShow(1, E.left({ questionId: 'regions', problem: 'TooManyPicks', message: 'regions: 4 picks, at most 3 allowed' }), cancel, false);
 * // { _tag: 'ShowAgain', error: { questionId: 'regions', ..., attemptsLeft: 2 } }
 * nextCardShow(3, E.left(refusal), cancel, false); // { _tag: 'Respond', response: cancel, refusedTooOften: true }
 * ```
 */
export function nextCardShow<R>(show: number, checked: E.Either<CardRefusal, R>, fallback: R, settled: boolean): CardShowStep<R> {
  if (isRecord(checked) && checked._tag === 'Right') return { _tag: 'Respond', response: checked.right, refusedTooOften: false };
  const attemptsLeft = typeof show === 'number' && Number.isFinite(show) ? CARD_SHOWS - Math.max(1, Math.floor(show)) : 0;
  if (attemptsLeft <= 0 || settled !== false) return { _tag: 'Respond', response: fallback, refusedTooOften: true };
  const refusal: Record<string, unknown> = isRecord(checked) && isRecord(checked.left) ? checked.left : {};
  const questionId = typeof refusal['questionId'] === 'string' ? refusal['questionId'] : null;
  const problem = typeof refusal['problem'] === 'string' ? refusal['problem'] : 'NotAnAnswer';
  const message = typeof refusal['message'] === 'string' ? refusal['message'] : 'the answer does not fit the card';
  return { _tag: 'ShowAgain', error: { questionId, problem, message, attemptsLeft } };
}
