/**
 * Path tests that read a range of a string in place (`s.slice(from, to)` without making it), so the
 * parser can classify a link target before it allocates anything. Pure functions of their inputs.
 */

const SKILL_FILE_NAME = 'skill.md';

const isAsciiLetter = (code: number): boolean => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

/**
 * Whether `s.slice(from, to)` is an absolute path: POSIX (`/x`), a Windows drive (`C:\x`, `C:/x`) or
 * a UNC share (`\\host\x`).
 */
export function isAbsolutePathAt(s: string, from: number, to: number): boolean {
  if (from >= to) return false;
  const first = s.charCodeAt(from);
  if (first === 0x2f /* / */) return true;
  if (from + 1 >= to) return false;
  const second = s.charCodeAt(from + 1);
  if (first === 0x5c /* \ */) return second === 0x5c;
  if (from + 2 >= to || second !== 0x3a /* : */ || !isAsciiLetter(first)) return false;
  const third = s.charCodeAt(from + 2);
  return third === 0x5c || third === 0x2f;
}

/**
 * Whether the file name of `s.slice(from, to)` is `SKILL.md` (any case), decided without allocating
 * when the last 8 characters are ASCII (lower-casing ASCII never changes a length, so the name
 * matches only if a separator comes right before them); `undefined` when they are not, or the range
 * is too short to tell this way.
 */
export function asciiSkillFileNameAt(s: string, from: number, to: number): boolean | undefined {
  const tail = to - SKILL_FILE_NAME.length;
  if (tail <= from) return undefined;
  let matches = true;
  for (let k = 0; k < SKILL_FILE_NAME.length; k++) {
    const code = s.charCodeAt(tail + k);
    if (code >= 0x80) return undefined;
    const lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
    if (lower !== SKILL_FILE_NAME.charCodeAt(k)) matches = false;
  }
  const separator = s.charCodeAt(tail - 1);
  return matches && (separator === 0x2f /* / */ || separator === 0x5c /* \ */);
}

/** Whether `s` has `prefix` at `at` (compared in place). */
export function hasPrefixAt(s: string, at: number, prefix: string): boolean {
  if (at + prefix.length > s.length) return false;
  for (let k = 0; k < prefix.length; k++) if (s.charCodeAt(at + k) !== prefix.charCodeAt(k)) return false;
  return true;
}
