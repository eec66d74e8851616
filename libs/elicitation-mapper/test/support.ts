/** Helpers shared by the tests: unwrap a card, load a golden fixture. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { elicitationToCard, type Card, type FormCard } from '../src/index.js';
import type { ToolApprovalCard } from '../src/Card.js';

/** The card of a request that must map; fails the test with the reason otherwise. */
export function cardOf(params: unknown): Card {
  const card = elicitationToCard(params);
  if (E.isLeft(card)) throw new Error(`expected a card, got ${card.left.message}`);
  return card.right;
}

/** The form card of a request that must map to a business form. */
export function formCardOf(params: unknown): FormCard {
  const card = cardOf(params);
  if (card._tag !== 'FormCard') throw new Error(`expected a FormCard, got ${card._tag}`);
  return card;
}

/** The approval card of a request that must map to a tool approval. */
export function approvalCardOf(params: unknown): ToolApprovalCard {
  const card = cardOf(params);
  if (card._tag !== 'ToolApprovalCard') throw new Error(`expected a ToolApprovalCard, got ${card._tag}`);
  return card;
}

/** A golden recorded from the real Codex by scripts/capture-goldens.mjs. */
export interface Golden {
  readonly capturedWith: string;
  readonly scenario: string;
  readonly cards: ReadonlyArray<{ readonly method: string; readonly params: Record<string, unknown>; readonly sent: unknown }>;
  readonly toolCalls: ReadonlyArray<{ readonly turn: number; readonly tool: string; readonly status: string; readonly output: string | null; readonly error: string | null }>;
}

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'codex');

/** Reads `test/fixtures/codex/<name>.json`. */
export function golden(name: string): Golden {
  return JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8')) as Golden;
}

/** `{ answers: { id: { answers } } }` from `{ id: answers }`. */
export function answers(byId: Record<string, ReadonlyArray<string>>): { answers: Record<string, { answers: Array<string> }> } {
  return { answers: Object.fromEntries(Object.entries(byId).map(([id, list]) => [id, { answers: [...list] }])) };
}
