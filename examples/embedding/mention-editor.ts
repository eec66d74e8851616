/**
 * The mention serializer in an editor: the editor keeps a composer document (text and indivisible
 * mentions), saves it as Codex markdown, loads it back, renders a stored message with badges, and hands
 * the message to Codex as `turn/start` input. Text the user typed that only looks like a mention stays
 * text all the way.
 *
 * Run: `node examples/dist/embedding/mention-editor.js` (after `npx nx build examples`).
 */
import { isLeft } from 'fp-ts/lib/Either.js';
import { normalize, parse, plugin, serialize, skill, text, tokenize, toCodexTurnInput, validateDocument, type ComposerDocument, type Mention } from '@wework/mention-serializer';

// The editor's model: the document, changed only by edits. A mention is one segment, never split.
let doc: ComposerDocument = [];
const type = (typed: string): void => void (doc = normalize([...doc, text(typed)]));
const pick = (mention: Mention): void => void (doc = [...doc, mention]);

// The user types, picks a skill from the `$` picker, types on, picks a plugin from the `@` picker,
// and types something that looks like a mention but is only text.
type('Summarise the report with ');
pick(skill('pdf', '/home/ada/.codex/skills/pdf/SKILL.md'));
type(' and publish it via ');
pick(plugin('Sites', 'wegent-sites', 'wegent'));
type(' (not [$x](app://y), that is text).');

// Before saving or sending: every mention must read back (a name, a target, an absolute skill path).
const valid = validateDocument(doc);
if (isLeft(valid)) throw new Error(`invalid mention: ${valid.left._tag}`);

// Save: the markdown is what the editor stores and what Codex reads.
const markdown = serialize(doc);
console.log(`saved: ${markdown}`);

// Load: parsing the saved markdown gives the document back.
const loaded = parse(markdown);
console.log(`loaded equals edited: ${JSON.stringify(loaded) === JSON.stringify(doc)}`);

// Render a stored message: text runs as text, mentions as badges.
const rendered = tokenize(markdown).map((token) => (token._tag === 'Text' ? token.text : `<${token.mention.kind} ${token.mention.name}>`));
console.log(`rendered: ${rendered.join('')}`);

// Send: the `turn/start` input an executor passes to Codex — the text, then one structured item per mention.
const input = toCodexTurnInput(markdown);
if (isLeft(input)) throw new Error('the saved markdown did not become turn input');
for (const item of input.right) {
  if (item.type === 'text') console.log(`input: text ${JSON.stringify(item.text)}`);
  else if (item.type === 'skill' || item.type === 'mention') console.log(`input: ${item.type} ${item.name} ${item.path}`);
}
