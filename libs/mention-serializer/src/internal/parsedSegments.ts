/**
 * The segments `parse` and `tokenize` build, made here rather than through the public constructors
 * `text`, `skill`, `app` and `plugin`. The objects are equal to theirs, with the same keys in the
 * same order; what differs is how the engine allocates them.
 *
 * V8 may allocate the objects of an object literal directly in the old generation ("pretenuring"),
 * once it has seen most objects of that literal survive a young-generation collection. A parse's
 * result usually dies young, but the decision is taken from a few samples: a caller keeping
 * documents built with the public constructors alive tenures them, and so can a collection that
 * happens to land inside one of the first large parses. From then on every result is born in the
 * old generation, a dropped result stays there until the next full collection, and every scavenge
 * until then copies and promotes the young strings it points to — on 1 MB of text a parse became
 * about twice as slow. Objects made by `new` of a plain function are not pretenured that way, so
 * the parser builds its segments with constructor functions whose `prototype` is
 * `Object.prototype`: each object is a plain object with the same own properties, in the same order,
 * as the literal would make (`constructor` is `Object`, JSON and equality are unchanged), and its
 * allocations stay in the young generation whatever happened before.
 */
import type { AppMention, PluginMention, SkillMention, TextSegment } from '../Document.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A constructor function whose instances are plain objects (its `prototype` is `Object.prototype`). */
interface PlainConstructor<Args extends unknown[], T> {
  new (...args: Args): T;
  prototype: object;
}

function plain<Args extends unknown[], T>(init: (this: Writable<T>, ...args: Args) => void): PlainConstructor<Args, T> {
  const constructor = init as unknown as PlainConstructor<Args, T>;
  constructor.prototype = Object.prototype;
  return constructor;
}

const TextObject = plain(function (this: Writable<TextSegment>, value: string) {
  this._tag = 'Text';
  this.text = value;
});

const SkillObject = plain(function (this: Writable<SkillMention>, name: string, path: string) {
  this._tag = 'Mention';
  this.kind = 'skill';
  this.name = name;
  this.path = path;
});

const AppObject = plain(function (this: Writable<AppMention>, name: string, connectorId: string) {
  this._tag = 'Mention';
  this.kind = 'app';
  this.name = name;
  this.connectorId = connectorId;
});

const PluginObject = plain(function (this: Writable<PluginMention>, name: string, pluginName: string, marketplaceName: string) {
  this._tag = 'Mention';
  this.kind = 'plugin';
  this.name = name;
  this.pluginName = pluginName;
  this.marketplaceName = marketplaceName;
});

/** `text(value)`. */
export const parsedText = (value: string): TextSegment => new TextObject(value);

/** `skill(name, path)`. */
export const parsedSkill = (name: string, path: string): SkillMention => new SkillObject(name, path);

/** `app(name, connectorId)`. */
export const parsedApp = (name: string, connectorId: string): AppMention => new AppObject(name, connectorId);

/** `plugin(name, pluginName, marketplaceName)`. */
export const parsedPlugin = (name: string, pluginName: string, marketplaceName: string): PluginMention => new PluginObject(name, pluginName, marketplaceName);
