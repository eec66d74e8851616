/**
 * `@wework/mention-serializer`: composer mentions of skills, apps and plugins ⇄ Codex-compatible
 * markdown, and → `turn/start` input with UTF-8 `text_elements` and structured `skill`/`mention`
 * items. Everything here is pure and total: no IO, no clock, no process.
 */
export {
  app,
  isAbsolutePath,
  isSkillFilePath,
  normalize,
  plugin,
  skill,
  text,
  validateDocument,
  type AppMention,
  type ComposerDocument,
  type InvalidMention,
  type Mention,
  type MentionKind,
  type PluginMention,
  type Segment,
  type SkillMention,
  type TextSegment,
} from './Document.js';
export { ComposerDocumentCodec, decodeDocument, type DocumentDecodeError } from './DocumentCodec.js';
export { parse, tokenize, type MentionToken, type SourceRange, type TextToken, type Token } from './Parse.js';
export { serialize, serializeMention, serializeWithRanges, sigilOf, targetOf, type SerializedDocument } from './Serialize.js';
export { structuredItemOf, toTurnInput } from './TurnInput.js';
export { toCodexTurnInput } from './CodexTurnInput.js';
