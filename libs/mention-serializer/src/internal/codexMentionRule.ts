/**
 * Where Codex would read a mention out of literal text. Codex (codex-rs, `extract_tool_mentions`)
 * scans every `text` input of a turn byte by byte, ignoring backslashes and markdown, for
 * `[` sigil name `]` (ASCII spaces) `(` path `)` — sigil `$` for skills and apps, `@` for plugins — and
 * for a plain `$name`; a name is `[A-Za-z0-9_-]` (newer versions also `:`). A mention needs its sigil
 * directly followed by a name character, so text split between the two reads as no mention.
 *
 * Every function here is pure: strings in, numbers out.
 */

/** Whether the UTF-16 code unit is a character Codex allows in a mention name. */
export const isCodexNameChar = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d || code === 0x3a;

/**
 * The offsets (UTF-16) in `text` right after each sigil that opens a mention in Codex's reading: a
 * `$` followed by a name character, and a `@` after `[` followed by one. Cutting `text` into separate
 * text inputs at these offsets leaves nothing Codex reads as a mention, and changes no character.
 */
export function codexMentionCuts(text: string): number[] {
  const cuts: number[] = [];
  for (let i = text.indexOf('$'), j = text.indexOf('[@'); i !== -1 || j !== -1; ) {
    const at = j !== -1 && (i === -1 || j + 1 < i) ? j + 1 : i;
    if (isCodexNameChar(text.charCodeAt(at + 1))) cuts.push(at + 1);
    if (at === i) i = text.indexOf('$', i + 1);
    else j = text.indexOf('[@', j + 1);
  }
  return cuts;
}
