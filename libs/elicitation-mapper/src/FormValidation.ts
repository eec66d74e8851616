/**
 * For plugin authors: the checks the plugin forms spec leaves to plugins. Wework does not block
 * empty text, forwards numbers without range checks and has no conditional fields, so a plugin
 * validates what it receives: required values present and non-empty, the "custom option + text"
 * pattern, numeric ranges and integers, membership in the offered values.
 *
 * Each check takes the accepted `content` as untrusted JSON and returns the errors it finds
 * (an empty array: valid); {@link validateForm} runs a set of rules at once.
 *
 * Every function here is pure: values in, values out.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { FormContent } from './ElicitResult.js';
import { isRecord } from '@wework/decode-issues';
import { own, type JsonRecord } from './internal/json.js';
import { schemaToQuestions } from './SchemaMapping.js';
import type { Unsupported } from './Unsupported.js';

/** The content is not an object. */
export interface NotAnObject {
  readonly _tag: 'NotAnObject';
  readonly message: string;
}

/** A required key is absent. */
export interface MissingValue {
  readonly _tag: 'MissingValue';
  readonly key: string;
  readonly message: string;
}

/** A required value is an empty (or blank) string or an empty array. */
export interface EmptyValue {
  readonly _tag: 'EmptyValue';
  readonly key: string;
  readonly message: string;
}

/** A value has the wrong JSON type. */
export interface WrongType {
  readonly _tag: 'WrongType';
  readonly key: string;
  readonly expected: string;
  readonly message: string;
}

/** A number outside its range. */
export interface OutOfRange {
  readonly _tag: 'OutOfRange';
  readonly key: string;
  readonly value: number;
  readonly minimum: number | null;
  readonly maximum: number | null;
  readonly message: string;
}

/** A number that must be an integer is not. */
export interface NotAnInteger {
  readonly _tag: 'NotAnInteger';
  readonly key: string;
  readonly value: number;
  readonly message: string;
}

/** A value (or an item of an array value) is not one of the allowed values. */
export interface NotAllowed {
  readonly _tag: 'NotAllowed';
  readonly key: string;
  readonly allowed: ReadonlyArray<string>;
  readonly message: string;
}

/** The custom choice was picked but its text is empty. */
export interface CustomTextMissing {
  readonly _tag: 'CustomTextMissing';
  readonly choiceKey: string;
  readonly textKey: string;
  readonly message: string;
}

/** A rule passed to a check is malformed (a programming error, reported rather than thrown). */
export interface InvalidRule {
  readonly _tag: 'InvalidRule';
  readonly message: string;
}

/** Why accepted form content is not valid for the plugin. */
export type FormValidationError = NotAnObject | MissingValue | EmptyValue | WrongType | OutOfRange | NotAnInteger | NotAllowed | CustomTextMissing | InvalidRule;

/** A numeric range; `integer` also requires an integer. */
export interface NumberRange {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly integer?: boolean;
}

/** The spec's "custom option + text" pattern: when `choiceKey` is `customChoice`, `textKey` must be non-empty. */
export interface CustomOptionRule {
  readonly choiceKey: string;
  readonly customChoice: string;
  readonly textKey: string;
}

/** Rules for {@link validateForm}. */
export interface FormRules {
  readonly required?: ReadonlyArray<string>;
  readonly ranges?: { readonly [key: string]: NumberRange };
  readonly allowed?: { readonly [key: string]: ReadonlyArray<string> };
  readonly customOptions?: ReadonlyArray<CustomOptionRule>;
}

const keyText = (key: string): string => JSON.stringify(key);
const notAnObject: NotAnObject = { _tag: 'NotAnObject', message: 'The form content is not an object' };
const blank = (value: string): boolean => !/\S/.test(value);

/** The strings of a list argument (rules are code, but a wrong one must not make a check throw). */
const stringsOf = (list: unknown): ReadonlyArray<string> => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
const rangeOf = (range: unknown): NumberRange => (isRecord(range) ? range : {});
const invalidKey: InvalidRule = { _tag: 'InvalidRule', message: 'A check needs a string key' };

const withContent = (content: unknown, check: (content: JsonRecord) => Array<FormValidationError>): Array<FormValidationError> =>
  isRecord(content) ? check(content) : [notAnObject];

/**
 * Required keys must be present and non-empty (a blank string or an empty array is empty).
 * @example
 * ```ts
 * checkRequired({ strategy: '' }, ['strategy']); // [{ _tag: 'EmptyValue', key: 'strategy', ... }]
 * ```
 */
export function checkRequired(content: unknown, keys: ReadonlyArray<string>): Array<FormValidationError> {
  return withContent(content, (record) =>
    stringsOf(keys).flatMap((key): Array<FormValidationError> => {
      const value = own(record, key);
      if (value === undefined || value === null) return [{ _tag: 'MissingValue', key, message: `${keyText(key)} is required` }];
      const empty = (typeof value === 'string' && blank(value)) || (Array.isArray(value) && value.length === 0);
      return empty ? [{ _tag: 'EmptyValue', key, message: `${keyText(key)} must not be empty` }] : [];
    }),
  );
}

/**
 * A present value must be a number within the range (and an integer when asked). An absent key passes.
 * @example
 * ```ts
 * checkRange({ replicas: 12 }, 'replicas', { minimum: 1, maximum: 9, integer: true }); // [{ _tag: 'OutOfRange', ... }]
 * ```
 */
export function checkRange(content: unknown, key: string, range: NumberRange): Array<FormValidationError> {
  if (typeof key !== 'string') return [invalidKey];
  const { minimum: min, maximum: max, integer } = rangeOf(range);
  return withContent(content, (record) => {
    const value = own(record, key);
    if (value === undefined) return [];
    if (typeof value !== 'number' || !Number.isFinite(value)) return [{ _tag: 'WrongType', key, expected: 'number', message: `${keyText(key)} must be a number` }];
    const errors: Array<FormValidationError> = [];
    if (integer === true && !Number.isInteger(value)) errors.push({ _tag: 'NotAnInteger', key, value, message: `${keyText(key)} must be an integer` });
    const minimum = typeof min === 'number' ? min : null;
    const maximum = typeof max === 'number' ? max : null;
    if ((minimum !== null && value < minimum) || (maximum !== null && value > maximum)) {
      const bounds = [minimum === null ? null : `>= ${minimum}`, maximum === null ? null : `<= ${maximum}`].filter((b) => b !== null).join(' and ');
      errors.push({ _tag: 'OutOfRange', key, value, minimum, maximum, message: `${keyText(key)} must be ${bounds}` });
    }
    return errors;
  });
}

/**
 * A present value (a string, or every item of an array of strings) must be one of `allowed`. An absent key passes.
 * @example
 * ```ts
 * checkAllowed({ target: 'prod' }, 'target', ['staging', 'production']); // [{ _tag: 'NotAllowed', ... }]
 * ```
 */
export function checkAllowed(content: unknown, key: string, allowed: ReadonlyArray<string>): Array<FormValidationError> {
  if (typeof key !== 'string') return [invalidKey];
  const offered = stringsOf(allowed);
  return withContent(content, (record) => {
    const value = own(record, key);
    if (value === undefined) return [];
    const items: ReadonlyArray<unknown> = Array.isArray(value) ? value : [value];
    if (!items.every((item) => typeof item === 'string')) return [{ _tag: 'WrongType', key, expected: 'string', message: `${keyText(key)} must be a string or an array of strings` }];
    return items.every((item) => offered.includes(item as string)) ? [] : [{ _tag: 'NotAllowed', key, allowed: offered, message: `${keyText(key)} must be one of the offered values` }];
  });
}

/**
 * The custom option: when `content[choiceKey]` is `customChoice`, `content[textKey]` must be a
 * non-blank string; otherwise the text is ignored (never an error).
 */
export function checkCustomOption(content: unknown, rule: CustomOptionRule): Array<FormValidationError> {
  const resolved = resolveCustomOption(content, rule);
  return E.isLeft(resolved) ? [resolved.left] : [];
}

/**
 * The effective choice of a "custom option + text" pair: the custom text (trimmed) when the custom
 * choice was picked, else the picked choice with the text ignored.
 * @example
 * ```ts
 * const rule = { choiceKey: 'strategy', customChoice: 'custom', textKey: 'customStrategy' };
 * resolveCustomOption({ strategy: 'custom', customStrategy: ' Inspect first ' }, rule); // Right({ choice: 'custom', customText: 'Inspect first' })
 * resolveCustomOption({ strategy: 'fast', customStrategy: 'ignored' }, rule);           // Right({ choice: 'fast', customText: null })
 * ```
 */
export function resolveCustomOption(
  content: unknown,
  rule: CustomOptionRule,
): E.Either<FormValidationError, { readonly choice: string; readonly customText: string | null }> {
  if (!isRecord(content)) return E.left(notAnObject);
  if (!isRecord(rule) || typeof rule.choiceKey !== 'string' || typeof rule.textKey !== 'string' || typeof rule.customChoice !== 'string') {
    return E.left({ _tag: 'InvalidRule', message: 'A custom option rule needs string choiceKey, customChoice and textKey' });
  }
  const choice = own(content, rule.choiceKey);
  if (choice === undefined) return E.left({ _tag: 'MissingValue', key: rule.choiceKey, message: `${keyText(rule.choiceKey)} is required` });
  if (typeof choice !== 'string') return E.left({ _tag: 'WrongType', key: rule.choiceKey, expected: 'string', message: `${keyText(rule.choiceKey)} must be a string` });
  if (choice !== rule.customChoice) return E.right({ choice, customText: null });
  const text = own(content, rule.textKey);
  if (typeof text !== 'string' || blank(text)) {
    return E.left({
      _tag: 'CustomTextMissing',
      choiceKey: rule.choiceKey,
      textKey: rule.textKey,
      message: `${keyText(rule.textKey)} must describe the custom choice when ${keyText(rule.choiceKey)} is ${JSON.stringify(rule.customChoice)}`,
    });
  }
  return E.right({ choice, customText: text.trim() });
}

/**
 * Runs every rule; `Right(content)` when all pass, else every error found.
 * @example
 * ```ts
 * validateForm(outcome.content, {
 *   required: ['strategy'],
 *   allowed: { strategy: ['fast', 'safe', 'custom'] },
 *   customOptions: [{ choiceKey: 'strategy', customChoice: 'custom', textKey: 'customStrategy' }],
 * });
 * ```
 */
export function validateForm(content: unknown, rules: FormRules): E.Either<ReadonlyArray<FormValidationError>, FormContent> {
  if (!isRecord(content)) return E.left([notAnObject]);
  const given: FormRules = isRecord(rules) ? rules : {};
  const errors = [
    ...checkRequired(content, given.required ?? []),
    ...Object.entries(isRecord(given.ranges) ? given.ranges : {}).flatMap(([key, range]) => checkRange(content, key, range)),
    ...Object.entries(isRecord(given.allowed) ? given.allowed : {}).flatMap(([key, allowed]) => checkAllowed(content, key, allowed)),
    ...(Array.isArray(given.customOptions) ? given.customOptions : []).flatMap((rule) => checkCustomOption(content, rule)),
  ];
  return errors.length === 0 ? E.right(content as FormContent) : E.left(errors);
}

/**
 * The rules a form schema implies: its `required` keys, its option values, its number ranges and
 * integer types. Add the rules the schema cannot say (custom options) before validating.
 * @example
 * ```ts
 * const rules = formRulesFromSchema(form.requestedSchema);
 * if (rules._tag === 'Right') validateForm(content, { ...rules.right, customOptions: [customRule] });
 * ```
 */
export function formRulesFromSchema(requestedSchema: unknown): E.Either<Unsupported, FormRules> {
  const questions = schemaToQuestions(requestedSchema, 'requestedSchema');
  if (E.isLeft(questions)) return questions;
  const required: Array<string> = [];
  const ranges: Array<[string, NumberRange]> = [];
  const allowed: Array<[string, ReadonlyArray<string>]> = [];
  for (const question of questions.right) {
    if (question.required) required.push(question.id);
    switch (question.answerType) {
      case 'singleChoice':
      case 'multiChoice':
        allowed.push([question.id, question.values]);
        break;
      case 'number':
      case 'integer': {
        const range: { minimum?: number; maximum?: number; integer?: boolean } = { integer: question.answerType === 'integer' };
        if (question.minimum !== null) range.minimum = question.minimum;
        if (question.maximum !== null) range.maximum = question.maximum;
        ranges.push([question.id, range]);
        break;
      }
      default:
        break;
    }
  }
  return E.right({ required, ranges: Object.fromEntries(ranges), allowed: Object.fromEntries(allowed) });
}
