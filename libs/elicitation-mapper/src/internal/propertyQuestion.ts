/**
 * One schema property → one card question, following the plugin forms spec's mapping table:
 * key → id; `title` → header; `description` → question (falling back to `title`, then the key);
 * `oneOf`/`anyOf` `{const, title}` → options; `enum` (+ `enumNames`) → options; `type: boolean`
 * → `true`/`false`; `type: array` with enum items → several choices; no option fields → text;
 * `number`/`integer` → a number input.
 *
 * Structure the card needs (the property object, option lists, option values) is checked
 * strictly; hints of the wrong type (`default`, `minimum`, `format`, a non-string `enumNames`
 * entry, ...) are ignored rather than declining the form.
 *
 * Every function here is pure: JSON in, a question or a `_tag`ged error out.
 */
import type { ToolRequestUserInputOption } from '@wework/codex-protocol';
import * as E from 'fp-ts/lib/Either.js';
import { isRecord } from '@wework/decode-issues';
import type { BooleanQuestion, FormQuestion, MultiChoiceQuestion, NumberQuestion, SingleChoiceQuestion, TextQuestion } from '../Card.js';
import {
  countOrNull,
  describeValue,
  finiteOrNull,
  jsonTypeOf,
  own,
  pathTo,
  stringOrNull,
  type JsonRecord,
} from './json.js';
import { uniqueLabels } from './optionLabels.js';
import {
  emptyOptions,
  invalidRequest,
  nonStringConst,
  nonStringEnum,
  unsupportedOption,
  unsupportedPropertyType,
  type Unsupported,
} from '../Unsupported.js';

/** Options of a choice question: labels with descriptions, and the value of each. */
interface Choices {
  readonly options: Array<ToolRequestUserInputOption>;
  readonly values: Array<string>;
}

const visible = /\S/;
const text = (value: unknown): string | null => (typeof value === 'string' && visible.test(value) ? value : null);

/** Builds the choices from parallel titles/values/descriptions, keeping the first option of a repeated value. */
const choices = (titles: Array<string | null>, values: Array<string>, descriptions: Array<string>): Choices => {
  let repeated = false;
  for (let i = 1; i < values.length && !repeated; i += 1) repeated = values.indexOf(values[i] as string) < i;
  if (repeated) {
    const keep = values.map((value, i) => values.indexOf(value) === i);
    titles = titles.filter((_, i) => keep[i]);
    descriptions = descriptions.filter((_, i) => keep[i]);
    values = values.filter((_, i) => keep[i]);
  }
  const labels = uniqueLabels(titles, values);
  const options = labels.map((label, i) => ({ label, description: descriptions[i] ?? '' }));
  return { options, values };
};

/** `oneOf`/`anyOf` lists of `{ const, title }`. */
const constChoices = (key: string, list: unknown, at: () => string): E.Either<Unsupported, Choices> => {
  if (!Array.isArray(list)) return E.left(invalidRequest(at(), 'array', describeValue(list)));
  const titles: Array<string | null> = [];
  const values: Array<string> = [];
  const descriptions: Array<string> = [];
  for (let i = 0; i < list.length; i += 1) {
    const item: unknown = list[i];
    if (!isRecord(item) || !Object.prototype.hasOwnProperty.call(item, 'const')) return E.left(unsupportedOption(key, i));
    const value = item['const'];
    if (typeof value !== 'string') return E.left(nonStringConst(key, i));
    values.push(value);
    titles.push(stringOrNull(own(item, 'title')));
    descriptions.push(stringOrNull(own(item, 'description')) ?? '');
  }
  if (values.length === 0) return E.left(emptyOptions(key));
  return E.right(choices(titles, values, descriptions));
};

/** `enum` with optional `enumNames` (labels; a missing or non-string name falls back to the value). */
const enumChoices = (key: string, list: unknown, names: unknown, at: () => string): E.Either<Unsupported, Choices> => {
  if (!Array.isArray(list)) return E.left(invalidRequest(at(), 'array', describeValue(list)));
  const values: Array<string> = [];
  for (const value of list as ReadonlyArray<unknown>) {
    if (typeof value !== 'string') return E.left(nonStringEnum(key));
    values.push(value);
  }
  if (values.length === 0) return E.left(emptyOptions(key));
  const titles = values.map((_, i) => (Array.isArray(names) ? stringOrNull(names[i]) : null));
  return E.right(choices(titles, values, values.map(() => '')));
};

/**
 * Id, header, question text and `required`, shared by every question. The builders below copy
 * these fields into one object literal each (an object spread here costs several times more).
 */
interface Common {
  readonly id: string;
  readonly header: string;
  readonly question: string;
  readonly required: boolean;
}

const common = (key: string, schema: JsonRecord, required: boolean): Common => {
  const title = text(own(schema, 'title'));
  return { id: key, header: title ?? key, question: text(own(schema, 'description')) ?? title ?? key, required };
};

const singleChoice = (base: Common, schema: JsonRecord, { options, values }: Choices): SingleChoiceQuestion => {
  const preset = own(schema, 'default');
  const named = typeof preset === 'string' ? values.indexOf(preset) : -1;
  const { id, header, question, required } = base;
  return { id, header, question, isOther: false, isSecret: false, required, answerType: 'singleChoice', options, values, defaultIndex: named < 0 ? 0 : named };
};

const multiChoice = (key: string, base: Common, schema: JsonRecord, at: () => string): E.Either<Unsupported, MultiChoiceQuestion> => {
  const items = own(schema, 'items');
  if (!isRecord(items)) return E.left(unsupportedPropertyType(key, 'array'));
  const itemEnum = own(items, 'enum');
  const anyOf = own(items, 'anyOf');
  const itemConsts = anyOf ?? own(items, 'oneOf');
  const decoded =
    itemEnum !== undefined
      ? enumChoices(key, itemEnum, own(items, 'enumNames'), () => pathTo(pathTo(at(), 'items'), 'enum'))
      : itemConsts !== undefined
        ? constChoices(key, itemConsts, () => pathTo(pathTo(at(), 'items'), anyOf !== undefined ? 'anyOf' : 'oneOf'))
        : E.left(unsupportedPropertyType(key, 'array'));
  if (E.isLeft(decoded)) return decoded;
  const { options, values } = decoded.right;
  const preset = own(schema, 'default');
  const defaultIndices = Array.isArray(preset) ? values.flatMap((value, i) => (preset.includes(value) ? [i] : [])) : [];
  const { id, header, question, required } = base;
  return E.right({
    id,
    header,
    question,
    isOther: false,
    isSecret: false,
    required,
    answerType: 'multiChoice',
    options,
    values,
    defaultIndices,
    minItems: countOrNull(own(schema, 'minItems')),
    maxItems: countOrNull(own(schema, 'maxItems')),
  });
};

const booleanQuestion = ({ id, header, question, required }: Common, schema: JsonRecord): BooleanQuestion => ({
  id,
  header,
  question,
  isOther: false,
  isSecret: false,
  required,
  answerType: 'boolean',
  options: [
    { label: 'true', description: '' },
    { label: 'false', description: '' },
  ],
  values: [true, false],
  defaultIndex: own(schema, 'default') === false ? 1 : 0,
});

const textQuestion = ({ id, header, question, required }: Common, schema: JsonRecord): TextQuestion => ({
  id,
  header,
  question,
  isOther: false,
  isSecret: false,
  required,
  answerType: 'text',
  options: null,
  defaultValue: stringOrNull(own(schema, 'default')),
  format: stringOrNull(own(schema, 'format')),
  minLength: countOrNull(own(schema, 'minLength')),
  maxLength: countOrNull(own(schema, 'maxLength')),
});

const numberQuestion = ({ id, header, question, required }: Common, schema: JsonRecord, type: 'number' | 'integer'): NumberQuestion => {
  const preset = finiteOrNull(own(schema, 'default'));
  return {
    id,
    header,
    question,
    isOther: false,
    isSecret: false,
    required,
    answerType: type,
    options: null,
    defaultValue: preset !== null && (type === 'number' || Number.isSafeInteger(preset)) ? preset : null,
    minimum: finiteOrNull(own(schema, 'minimum')),
    maximum: finiteOrNull(own(schema, 'maximum')),
  };
};

/** The choices of a property with an option field (`oneOf`, `anyOf`, `enum`), or `undefined` when it has none. */
const optionField = (key: string, schema: JsonRecord, at: () => string): E.Either<Unsupported, Choices> | undefined => {
  const oneOf = own(schema, 'oneOf');
  if (oneOf !== undefined) return constChoices(key, oneOf, () => pathTo(at(), 'oneOf'));
  const anyOf = own(schema, 'anyOf');
  if (anyOf !== undefined) return constChoices(key, anyOf, () => pathTo(at(), 'anyOf'));
  const values = own(schema, 'enum');
  if (values !== undefined) return enumChoices(key, values, own(schema, 'enumNames'), () => pathTo(at(), 'enum'));
  return undefined;
};

const typeName = (type: unknown): string => (typeof type === 'string' ? type : jsonTypeOf(type));

/**
 * Maps one schema property to a question.
 * @param schemaPath where the whole schema sits in the request, for error messages
 */
export function propertyQuestion(key: string, schema: unknown, required: boolean, schemaPath: string): E.Either<Unsupported, FormQuestion> {
  const at = (): string => pathTo(pathTo(schemaPath, 'properties'), key);
  if (!isRecord(schema)) return E.left(invalidRequest(at(), 'object', describeValue(schema)));
  const type = own(schema, 'type');
  const base = common(key, schema, required);
  if (type !== 'array') {
    const field = optionField(key, schema, at);
    if (field !== undefined) {
      if (E.isLeft(field)) return field;
      if (type !== undefined && type !== 'string') return E.left(unsupportedPropertyType(key, typeName(type)));
      return E.right(singleChoice(base, schema, field.right));
    }
  }
  switch (type) {
    case undefined:
    case 'string':
      return E.right(textQuestion(base, schema));
    case 'boolean':
      return E.right(booleanQuestion(base, schema));
    case 'number':
    case 'integer':
      return E.right(numberQuestion(base, schema, type));
    case 'array':
      return multiChoice(key, base, schema, at);
    default:
      return E.left(unsupportedPropertyType(key, typeName(type)));
  }
}
