/**
 * The segments `parse` and `tokenize` build, made here rather than through the public constructors
 * `text`, `skill`, `app` and `plugin`. The objects are equal to theirs, with the same keys in the
 * same order; what differs is how the engine allocates them (see `plainObjects.ts`): a parse's
 * result usually dies young, but the benchmark's corpus, or any caller keeping documents built with
 * the public constructors alive, tenured those literals, and a dropped 1 MB parse result then
 * survived scavenges — a parse became about twice as slow.
 */
import type { AppMention, PluginMention, SkillMention, TextSegment } from '../Document.js';
import { plain, type Writable } from './plainObjects.js';

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
