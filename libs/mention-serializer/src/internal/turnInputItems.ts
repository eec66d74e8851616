/**
 * The objects of a `turn/start` input that the package builds one per mention (the text element and
 * its byte range, the structured `skill` and `mention` items) and the `text` item, made by plain
 * constructors (see `plainObjects.ts`) rather than object literals. They are equal to the literals,
 * with the same keys in the same order. Pure: values in, plain objects out.
 *
 * `toTurnInput` keeps every one of them alive until it returns, so a young-generation collection
 * inside one of its first large calls found them all alive and V8 pretenured the literals; from then
 * on each call of about 1 MB allocated its items in the old generation and took about 1.4 times as
 * long (seen in about half of the processes that ran it on the benchmark's text).
 */
import type { ByteRange, TextElement, UserInputStrict } from '@wework/codex-protocol';
import { plain, type Writable } from './plainObjects.js';

type SkillItem = Extract<UserInputStrict, { type: 'skill' }>;
type MentionItem = Extract<UserInputStrict, { type: 'mention' }>;
type TextItem = Extract<UserInputStrict, { type: 'text' }>;

const RangeObject = plain(function (this: Writable<ByteRange>, start: number, end: number) {
  this.start = start;
  this.end = end;
});

const ElementObject = plain(function (this: Writable<TextElement>, start: number, end: number, placeholder: string) {
  this.byteRange = new RangeObject(start, end);
  this.placeholder = placeholder;
});

const SkillItemObject = plain(function (this: Writable<SkillItem>, name: string, path: string) {
  this.type = 'skill';
  this.name = name;
  this.path = path;
});

const MentionItemObject = plain(function (this: Writable<MentionItem>, name: string, path: string) {
  this.type = 'mention';
  this.name = name;
  this.path = path;
});

const TextItemObject = plain(function (this: Writable<TextItem>, text: string, elements: TextElement[]) {
  this.type = 'text';
  this.text = text;
  this.text_elements = elements;
});

/** `{ byteRange: { start, end }, placeholder }`. */
export const textElement = (start: number, end: number, placeholder: string): TextElement => new ElementObject(start, end, placeholder);

/** `{ type: 'skill', name, path }`. */
export const skillItem = (name: string, path: string): UserInputStrict => new SkillItemObject(name, path);

/** `{ type: 'mention', name, path }`. */
export const mentionItem = (name: string, path: string): UserInputStrict => new MentionItemObject(name, path);

/** `{ type: 'text', text, text_elements }`. */
export const textItem = (text: string, elements: TextElement[]): UserInputStrict => new TextItemObject(text, elements);
