/**
 * Reading a host's answers: the answer strings of a question, the option a label names, a number
 * as a user types it. Shared by the answer mapping and its strict reading.
 *
 * Every function here is pure: JSON in, values out; nothing throws.
 */
import { isRecord } from '@wework/decode-issues';
import { own } from './json.js';

/** The answer strings of question `id`, or `undefined` when the host gave none that are usable. */
export const answerStrings = (answers: unknown, id: string): ReadonlyArray<string> | undefined => {
  if (!isRecord(answers)) return undefined;
  const entry = own(answers, id);
  if (!isRecord(entry)) return undefined;
  const list = own(entry, 'answers');
  if (!Array.isArray(list)) return undefined;
  for (const item of list as ReadonlyArray<unknown>) if (typeof item !== 'string') return undefined;
  return list as ReadonlyArray<string>;
};

/** The index of the option labelled `label`, or `-1`. */
export const optionIndex = (options: unknown, label: string | undefined): number => {
  if (label === undefined || !Array.isArray(options)) return -1;
  for (let i = 0; i < options.length; i += 1) {
    const option: unknown = options[i];
    if (isRecord(option) && option['label'] === label) return i;
  }
  return -1;
};

const numberSyntax = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Parses a decimal number as typed by a user (no hex, no `Infinity`, no empty string). */
export const parseNumber = (raw: string | undefined, integer: boolean): number | undefined => {
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  if (!numberSyntax.test(trimmed)) return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || (integer && !Number.isSafeInteger(value))) return undefined;
  return value === 0 ? 0 : value; // no -0 in the content
};

