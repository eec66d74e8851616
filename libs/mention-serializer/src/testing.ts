/**
 * `@wework/mention-serializer/testing`: fast-check arbitraries of composer documents, so hosts can
 * property-test their own use of the serializer. Needs `fast-check` (an optional peer dependency).
 *
 * The strings lean on what is hard to escape: brackets, parentheses, spaces, backslashes, `%`,
 * sigils, newlines, non-ASCII and astral characters, and fragments of mention markdown.
 *
 * Every value here is pure: arbitraries describe values; fast-check supplies the randomness.
 */
import * as fc from 'fast-check';
import { app, plugin, skill, text, type ComposerDocument, type Mention, type Segment } from './Document.js';

const tricky = ['[', ']', '(', ')', '\\', ' ', '$', '@', '%', '%2', '%ZZ', '\n', '\t', 'é', '用户', '😀', '\u3000', '/', ':', '.', '#'];
const fragments = ['[$', '[@', '](', 'app://', 'plugin://', 'skill://', '/SKILL.md', '[$x](app://y)', '[x](https://a.b)', '[$x](http://a)', '\\[', '\\\\'];

/** One character (or short fragment) of a name, target or text, biased towards the tricky ones. */
export const trickyCharArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...tricky) },
  { weight: 3, arbitrary: fc.constantFrom('a', 'b', 'Z', '0', '-', '_') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);

/** Any string, biased towards characters and fragments that need escaping. */
export const trickyStringArbitrary: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 5, arbitrary: trickyCharArbitrary }, { weight: 1, arbitrary: fc.constantFrom(...fragments) }), {
    maxLength: 24,
  })
  .map((parts) => parts.join(''));

/** A non-empty string, biased like {@link trickyStringArbitrary}. */
export const nonEmptyTrickyStringArbitrary: fc.Arbitrary<string> = fc
  .tuple(trickyCharArbitrary, trickyStringArbitrary)
  .map(([first, rest]) => first + rest);

/** An absolute path: POSIX, Windows drive or UNC; usually ending in `SKILL.md`. */
export const absoluteSkillPathArbitrary: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('/', 'C:\\', 'd:/', '\\\\server\\'),
    fc.array(nonEmptyTrickyStringArbitrary, { maxLength: 4 }),
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom('SKILL.md', 'skill.md') }, { weight: 1, arbitrary: trickyStringArbitrary }),
  )
  .map(([root, dirs, file]) => {
    const separator = root.includes('\\') ? '\\' : '/';
    return root + [...dirs, file].join(separator);
  });

/** A skill mention with an absolute path. */
export const skillMentionArbitrary: fc.Arbitrary<Mention> = fc
  .tuple(nonEmptyTrickyStringArbitrary, absoluteSkillPathArbitrary)
  .map(([name, path]) => skill(name, path));

/** An app mention. */
export const appMentionArbitrary: fc.Arbitrary<Mention> = fc
  .tuple(nonEmptyTrickyStringArbitrary, nonEmptyTrickyStringArbitrary)
  .map(([name, id]) => app(name, id));

/** A plugin mention. */
export const pluginMentionArbitrary: fc.Arbitrary<Mention> = fc
  .tuple(nonEmptyTrickyStringArbitrary, nonEmptyTrickyStringArbitrary, nonEmptyTrickyStringArbitrary)
  .map(([name, pluginName, marketplace]) => plugin(name, pluginName, marketplace));

/** Any valid mention (passes `validateDocument`). */
export const mentionArbitrary: fc.Arbitrary<Mention> = fc.oneof(skillMentionArbitrary, appMentionArbitrary, pluginMentionArbitrary);

/** A text segment (possibly empty, possibly looking like a mention). */
export const textSegmentArbitrary: fc.Arbitrary<Segment> = trickyStringArbitrary.map(text);

/**
 * A valid composer document, not necessarily in normal form (it may hold empty or adjacent text
 * segments).
 */
export const documentArbitrary: fc.Arbitrary<ComposerDocument> = fc.array(
  fc.oneof({ weight: 3, arbitrary: textSegmentArbitrary }, { weight: 2, arbitrary: mentionArbitrary }),
  { maxLength: 12 },
);
