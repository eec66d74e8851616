/**
 * `@wework/mention-serializer`: composer mentions of skills, apps and plugins ⇄ Codex-compatible
 * markdown, and → `turn/start` input with UTF-8 `text_elements` and structured `skill`/`mention`
 * items. Everything here is pure and total: no IO, no clock, no process.
 */
export {
  app,
  normalize,
  plugin,
  skill,
  text,
  validateDocument,
  type ComposerDocument,
  type InvalidMention,
  type Mention,
  type Segment,
  type SkillMention,
} from './Document.js';
export { decodeDocument } from './DocumentCodec.js';
export { parse, tokenize } from './Parse.js';
export { serialize, serializeWithRanges, sigilOf } from './Serialize.js';
export { toTurnInput } from './TurnInput.js';
export { toCodexTurnInput } from './CodexTurnInput.js';
