/**
 * fast-check arbitraries of config.toml texts, for property tests of code that reads or edits
 * them: root keys with comments and blank lines, every string style, arrays and inline tables,
 * dates, tables and arrays of tables, with or without `personality`, `instructions` and
 * `developer_instructions`, LF or CRLF line endings, an optional byte order mark and an optional
 * final line break.
 *
 * Pure: the generated values come from fast-check's seeded generators.
 */
import fc from 'fast-check';

/** A generated config text and what a test needs to know about it. */
export interface GeneratedConfig {
  readonly text: string;
  readonly lineEnding: '\n' | '\r\n';
  /** Every full-line comment, exactly as written (without its line break). */
  readonly commentLines: ReadonlyArray<string>;
}

/** How a string value is written in TOML. */
export type TomlStringStyle = 'basic' | 'literal' | 'multiLineBasic' | 'multiLineLiteral';

/** Characters string contents are made of: quotes, backslashes, line breaks, a control character, non-ASCII. */
const CONTENT_UNITS = ['a', 'b', 'Z', '0', ' ', '\t', '\n', '\r', '"', "'", '\\', '#', '=', '[', ']', '{', '.', 'é', '中', '🙂', '\u0001', '"""', "'''"];

/** Characters comments are made of (no control characters but tab: TOML forbids them in comments). */
const COMMENT_UNITS = ['a', 'x', ' ', '\t', '#', '=', '"', "'", '[', ']', 'instructions = "x"', 'é', '🙂'];

/** String contents worth testing TOML encoders with. */
export const stringContentArbitrary: fc.Arbitrary<string> = fc.string({ unit: fc.constantFrom(...CONTENT_UNITS), maxLength: 24 });

function escapeBasic(c: string, keepNewline: boolean): string {
  if (c === '\\') return '\\\\';
  if (c === '"') return '\\"';
  if (c === '\n') return keepNewline ? c : '\\n';
  if (c === '\t') return c;
  const code = c.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `\\u${code.toString(16).padStart(4, '0')}`;
  return c;
}

/**
 * `content` written in `style`, or as a basic string when that style cannot hold it. In a
 * multi-line string, line breaks are written as `lineEnding` (so a CRLF document reads them as
 * `\r\n`).
 */
export function writeTomlString(content: string, style: TomlStringStyle, lineEnding: '\n' | '\r\n'): string {
  const hasControl = [...content].some((c) => c !== '\t' && c !== '\n' && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f));
  if (style === 'literal' && !hasControl && !content.includes("'") && !content.includes('\n')) return `'${content}'`;
  if (style === 'multiLineLiteral' && !hasControl && !content.includes("''") && !content.endsWith("'")) {
    return `'''${lineEnding}${content.split('\n').join(lineEnding)}'''`;
  }
  if (style === 'multiLineBasic') {
    const body = [...content].map((c) => escapeBasic(c, true)).join('').split('\n').join(lineEnding);
    return `"""${lineEnding}${body}"""`;
  }
  return `"${[...content].map((c) => escapeBasic(c, false)).join('')}"`;
}

const styleArbitrary = fc.constantFrom<TomlStringStyle>('basic', 'literal', 'multiLineBasic', 'multiLineLiteral');

type Fragment = (lineEnding: '\n' | '\r\n') => string;

const stringValue: fc.Arbitrary<Fragment> = fc
  .tuple(stringContentArbitrary, styleArbitrary)
  .map(([content, style]) => (eol) => writeTomlString(content, style, eol));

const scalarValue: fc.Arbitrary<Fragment> = fc.oneof(
  fc.integer().map((n) => () => String(n)),
  fc.constantFrom('3.5', '-0.25', '1e3', 'inf', 'nan', 'true', 'false', '0x1F', '1_000').map((v) => () => v),
  fc.constantFrom('1979-05-27', '1979-05-27T07:32:00Z', '1979-05-27 07:32:00-07:00', '07:32:00').map((v) => () => v),
  stringValue,
);

const arrayValue: fc.Arbitrary<Fragment> = fc.tuple(fc.array(scalarValue, { maxLength: 3 }), fc.boolean()).map(([items, multiLine]) => (eol) => {
  if (!multiLine) return `[${items.map((item) => item(eol)).join(', ')}]`;
  return `[${eol}${items.map((item) => `  ${item(eol)}, # item${eol}`).join('')}]`;
});

const inlineTableValue: fc.Arbitrary<Fragment> = fc
  .uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c', '"d e"'), scalarValue), { maxLength: 3, selector: ([key]) => key })
  .map((entries) => (eol) => `{ ${entries.map(([key, value]) => `${key} = ${value(eol).replace(/\r?\n/g, ' ')}`).join(', ')} }`);

/** Values of a key/value line: scalars, arrays (one line or several, with comments) and inline tables on one line. */
const valueArbitrary: fc.Arbitrary<Fragment> = fc.oneof({ weight: 4, arbitrary: scalarValue }, { weight: 1, arbitrary: arrayValue }, { weight: 1, arbitrary: inlineTableValue });

const commentText = fc.string({ unit: fc.constantFrom(...COMMENT_UNITS), maxLength: 20 });

/** One line or statement of a table body. */
type Item =
  | { readonly kind: 'comment'; readonly line: string }
  | { readonly kind: 'blank'; readonly line: string }
  | { readonly kind: 'statement'; readonly render: Fragment };

const commentItem: fc.Arbitrary<Item> = fc.tuple(fc.constantFrom('', '  ', '\t'), commentText).map(([indent, text]) => ({ kind: 'comment', line: `${indent}#${text}` }));
const blankItem: fc.Arbitrary<Item> = fc.constantFrom('', '   ').map((line): Item => ({ kind: 'blank', line }));

/** A key written bare, as a basic string or as a literal string. */
function spelledKey(name: string): fc.Arbitrary<string> {
  return fc.constantFrom(name, `"${name}"`, `'${name}'`);
}

function statement(key: fc.Arbitrary<string>, value: fc.Arbitrary<Fragment>): fc.Arbitrary<Item> {
  return fc
    .tuple(key, value, fc.constantFrom('', '  '), fc.constantFrom(' = ', '=', '  =  '), fc.option(commentText, { nil: undefined }))
    .map(([k, v, indent, equals, trailing]): Item => ({
      kind: 'statement',
      render: (eol) => `${indent}${k}${equals}${v(eol)}${trailing === undefined ? '' : ` #${trailing}`}`,
    }));
}

/** Statements of distinct keys taken from `names`, mixed with comments and blank lines. */
function body(names: ReadonlyArray<string>, extra: ReadonlyArray<fc.Arbitrary<Item>>): fc.Arbitrary<ReadonlyArray<Item>> {
  return fc
    .tuple(
      fc.uniqueArray(fc.constantFrom(...names), { maxLength: 4 }).chain((keys) => fc.tuple(...keys.map((name) => statement(spelledKey(name), valueArbitrary)))),
      fc.tuple(...extra),
      fc.array(fc.oneof(commentItem, blankItem), { maxLength: 4 }),
    )
    .chain(([statements, owned, fillers]) => {
      const all: Item[] = [...statements, ...owned, ...fillers];
      return all.length === 0 ? fc.constant<Item[]>([]) : fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
    });
}

const ROOT_KEYS = ['model', 'model_provider', 'approval_policy', 'notify', 'x', 'y-z', '_k1', 'review_model'];
const TABLE_KEYS = ['command', 'args', 'enabled', 'model', 'instructions', 'personality', 'developer_instructions', 'TOKEN'];

const stringOrOther: fc.Arbitrary<Fragment> = fc.oneof({ weight: 5, arbitrary: stringValue }, { weight: 1, arbitrary: fc.integer().map((n) => () => String(n)) });

/** The root keys Wework owns, each present or not, as strings in any style (or, rarely, another type). */
const ownedRootItems: fc.Arbitrary<ReadonlyArray<Item>> = fc
  .tuple(
    fc.option(statement(spelledKey('instructions'), stringOrOther), { nil: undefined, freq: 2 }),
    fc.option(statement(spelledKey('developer_instructions'), stringOrOther), { nil: undefined, freq: 2 }),
    fc.option(statement(spelledKey('personality'), fc.constantFrom('"friendly"', "'none'", '"pragmatic"').map((v) => () => v)), { nil: undefined, freq: 2 }),
  )
  .map((items) => items.filter((item): item is Item => item !== undefined));

const dottedRootItem: fc.Arbitrary<Item> = statement(fc.constantFrom('dotted.sub', 'dotted."quoted key"'), scalarValue);

interface Table {
  readonly header: string;
  readonly items: ReadonlyArray<Item>;
}

const tableArbitrary: fc.Arbitrary<Table> = fc
  .tuple(
    fc.constantFrom('features', 'mcp_servers.forms', 'mcp_servers.forms.env', 'profiles.fast', '"quoted table"'),
    fc.constantFrom('', '  '),
    fc.option(commentText, { nil: undefined }),
    body(TABLE_KEYS, []),
  )
  .map(([name, indent, trailing, items]) => ({ header: `${indent}[${name}]${trailing === undefined ? '' : ` #${trailing}`}`, items }));

const arrayTableArbitrary: fc.Arbitrary<Table> = fc.tuple(fc.constantFrom('hooks', 'servers.list'), body(TABLE_KEYS, [])).map(([name, items]) => ({ header: `[[${name}]]`, items }));

/**
 * config.toml texts that smol-toml accepts, built as above. Each root key appears at most once;
 * `instructions`, `developer_instructions` and `personality` are present or absent independently.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(configDocumentArbitrary, ({ text }) => parse(text) !== undefined));
 * ```
 */
export const configDocumentArbitrary: fc.Arbitrary<GeneratedConfig> = fc
  .tuple(
    ownedRootItems.chain((owned) => fc.option(dottedRootItem, { nil: undefined }).chain((dotted) => body(ROOT_KEYS, [...owned, ...(dotted === undefined ? [] : [dotted])].map((item) => fc.constant(item))))),
    fc.uniqueArray(tableArbitrary, { maxLength: 3, selector: (table) => table.header.trim().replace(/ #.*$/, '') }),
    fc.array(arrayTableArbitrary, { maxLength: 2 }),
    fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([root, tables, arrayTables, eol, finalBreak, bom]) => {
    const lines: string[] = [];
    const commentLines: string[] = [];
    const emit = (items: ReadonlyArray<Item>): void => {
      for (const item of items) {
        if (item.kind === 'comment') {
          lines.push(item.line);
          commentLines.push(item.line);
        } else if (item.kind === 'blank') lines.push(item.line);
        else lines.push(item.render(eol));
      }
    };
    emit(root);
    for (const table of [...tables, ...arrayTables]) {
      lines.push(table.header);
      emit(table.items);
    }
    const joined = lines.join(eol);
    const text = `${bom ? '\uFEFF' : ''}${joined}${finalBreak && joined !== '' ? eol : ''}`;
    return { text, lineEnding: eol, commentLines };
  });
