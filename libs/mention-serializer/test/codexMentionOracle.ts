/**
 * An independent reading of Codex's mention rule, as a test oracle: the byte spans of a UTF-8 text
 * that Codex (codex-rs `extract_tool_mentions`, scanned with the `$` sigil and again with `@`) takes
 * for a mention — `[` sigil name `]` ASCII-whitespace* `(` path `)` with a non-blank path, and a
 * plain `$name` — where a name is one or more of `[A-Za-z0-9_:-]`. Common environment variables
 * are matched too (stricter than Codex).
 */
const isName = (byte: number | undefined): boolean =>
  byte !== undefined && ((byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x5f || byte === 0x2d || byte === 0x3a);
const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d;

/** `[start, end)` byte spans Codex reads as mentions with `sigil`. */
function spansWith(bytes: Buffer, sigil: number): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  let i = 0;
  while (i < bytes.length) {
    if (bytes[i] === 0x5b && bytes[i + 1] === sigil && isName(bytes[i + 2])) {
      let j = i + 3;
      while (isName(bytes[j])) j++;
      if (bytes[j] === 0x5d) {
        let k = j + 1;
        while (isSpace(bytes[k])) k++;
        if (bytes[k] === 0x28) {
          const close = bytes.indexOf(0x29, k + 1);
          if (close !== -1 && bytes.subarray(k + 1, close).toString('utf8').trim() !== '') {
            spans.push([i, close + 1]);
            i = close + 1;
            continue;
          }
        }
      }
    }
    if (sigil === 0x24 && bytes[i] === 0x24 && isName(bytes[i + 1])) {
      let j = i + 2;
      while (isName(bytes[j])) j++;
      spans.push([i, j]);
      i = j;
      continue;
    }
    i++;
  }
  return spans;
}

/** Every byte span of `text` Codex would read as a skill, app or plugin mention. */
export function codexMentionSpans(text: string): Array<readonly [number, number]> {
  const bytes = Buffer.from(text, 'utf8');
  return [...spansWith(bytes, 0x24), ...spansWith(bytes, 0x40)];
}
