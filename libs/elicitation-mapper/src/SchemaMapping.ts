/**
 * A form schema (`requestedSchema`) → the questions of a card, one per property, in the order
 * the request carries the properties (`Object.keys` order of the decoded JSON: insertion order,
 * except that JavaScript lists integer-like keys such as `"1"` first, in numeric order).
 * Codex sorts property keys alphabetically before forwarding a plugin's form; a plain MCP request
 * keeps the plugin's order. Either way the card keeps the order it is given.
 *
 * Declined, as the plugin forms spec says: a missing `properties`, non-string `enum` values,
 * non-string `oneOf[].const`s, and property types no question supports.
 *
 * Every function here is pure: JSON in, questions or a `_tag`ged error out.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { FormQuestion } from './Card.js';
import { isRecord } from '@wework/decode-issues';
import { describeValue, own, pathAt, pathTo } from './internal/json.js';
import { propertyQuestion } from './internal/propertyQuestion.js';
import { invalidRequest, missingProperties, type Unsupported } from './Unsupported.js';

/**
 * Maps a `requestedSchema` to card questions.
 * @param at where the schema sits in the request, for error messages (default `params.requestedSchema`)
 * @example
 * ```ts
 * schemaToQuestions({ type: 'object', properties: { confirm: { type: 'boolean', title: 'Confirm' } } });
 * // Right([{ id: 'confirm', header: 'Confirm', question: 'Confirm', answerType: 'boolean',
 * //          options: [{ label: 'true', description: '' }, { label: 'false', description: '' }], ... }])
 * ```
 */
export function schemaToQuestions(schema: unknown, at = 'params.requestedSchema'): E.Either<Unsupported, Array<FormQuestion>> {
  const path = typeof at === 'string' ? at : 'params.requestedSchema';
  if (schema === undefined || schema === null) return E.left(missingProperties());
  if (!isRecord(schema)) return E.left(invalidRequest(path, 'object', describeValue(schema)));
  const type = own(schema, 'type');
  if (type !== undefined && type !== 'object') return E.left(invalidRequest(pathTo(path, 'type'), '"object"', describeValue(type, true)));
  const properties = own(schema, 'properties');
  if (properties === undefined || properties === null) return E.left(missingProperties());
  if (!isRecord(properties)) return E.left(invalidRequest(pathTo(path, 'properties'), 'object', describeValue(properties)));
  const required = own(schema, 'required');
  if (required !== undefined) {
    if (!Array.isArray(required)) return E.left(invalidRequest(pathTo(path, 'required'), 'array', describeValue(required)));
    for (let i = 0; i < required.length; i += 1) {
      const item: unknown = required[i];
      if (typeof item !== 'string') return E.left(invalidRequest(pathAt(pathTo(path, 'required'), i), 'string', describeValue(item)));
    }
  }
  const requiredKeys: ReadonlyArray<unknown> = required ?? [];
  const questions: Array<FormQuestion> = [];
  for (const key of Object.keys(properties)) {
    const question = propertyQuestion(key, properties[key], requiredKeys.includes(key), path);
    if (E.isLeft(question)) return question;
    questions.push(question.right);
  }
  return E.right(questions);
}
