import * as E from 'fp-ts/lib/Either.js';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import {
  composeDeveloperInstructions,
  freshConfigText,
  normalizeConfig,
  splitDeveloperInstructions,
  type NormalizedConfig,
} from '../../src/config/index.js';
import type { ConfigError } from '@wework/config-toml';

const normalized = (text: string): NormalizedConfig => {
  const result = normalizeConfig(text);
  if (E.isLeft(result)) throw new Error(`expected Right, got ${JSON.stringify(result.left)}`);
  expect(normalizeConfig(result.right.text)).toEqual(E.right({ text: result.right.text, changes: [], warnings: result.right.warnings }));
  return result.right;
};
const textOf = (text: string): string => normalized(text).text;
const failure = (text: string): ConfigError => {
  const result = normalizeConfig(text);
  if (E.isRight(result)) throw new Error(`expected Left, got ${JSON.stringify(result.right.text)}`);
  return result.left;
};

describe('freshConfigText', () => {
  it('is the normalization of an empty file', () => {
    expect(freshConfigText()).toBe('personality = "pragmatic"\n');
    expect(textOf('')).toBe(freshConfigText());
    expect(normalized('').changes).toEqual([{ _tag: 'PersonalityAdded', personality: 'pragmatic' }]);
  });
});

describe('the TSDoc example', () => {
  it('gives what it says', () => {
    expect(textOf('# mine\ninstructions = "Be brief."\n\n[features]\nplugins = false\n')).toBe(
      '# mine\ndeveloper_instructions = "Be brief."\npersonality = "pragmatic"\n\n[features]\nplugins = false\n',
    );
  });
});

describe('personality', () => {
  it('is left alone when present, whatever its value', () => {
    for (const text of ['personality = "friendly"\n', "personality = 'none' # mine\n", 'personality.x = 1\n', '[personality]\nx = 1\n']) {
      expect(normalized(text)).toEqual({ text, changes: [], warnings: [] });
    }
  });

  it('is added after the last root key, before comments and tables that follow', () => {
    const text = '# My config\nmodel = "o3" # pinned\n\n# Servers\n[mcp_servers.forms]\ncommand = "node"\n';
    expect(textOf(text)).toBe('# My config\nmodel = "o3" # pinned\npersonality = "pragmatic"\n\n# Servers\n[mcp_servers.forms]\ncommand = "node"\n');
  });

  it('is added at the start of a file that is only tables', () => {
    expect(textOf('[features]\nplugins = false\n')).toBe('personality = "pragmatic"\n[features]\nplugins = false\n');
    expect(textOf('# comment\n\n[[hooks]]\nname = "a"\n')).toBe('personality = "pragmatic"\n# comment\n\n[[hooks]]\nname = "a"\n');
  });

  it('counts only root keys: `personality` inside a table does not count', () => {
    expect(textOf('[profiles.fast]\npersonality = "friendly"\n')).toBe('personality = "pragmatic"\n[profiles.fast]\npersonality = "friendly"\n');
  });

  it('goes after a multi-line value, not inside it', () => {
    const text = 'notify = [\n  "a", # first\n  "b",\n]\nx = """\n[not a table]\n"""\n[t]\n';
    expect(textOf(text)).toBe('notify = [\n  "a", # first\n  "b",\n]\nx = """\n[not a table]\n"""\npersonality = "pragmatic"\n[t]\n');
  });

  it('keeps a file without a final line break without one', () => {
    expect(textOf('model = "o3"')).toBe('model = "o3"\npersonality = "pragmatic"');
    expect(textOf('model = "o3" # c')).toBe('model = "o3" # c\npersonality = "pragmatic"');
    expect(textOf('# only a comment')).toBe('personality = "pragmatic"\n# only a comment');
  });

  it("keeps CRLF line endings and the byte order mark", () => {
    expect(textOf('model = "o3"\r\n\r\n[t]\r\na = 1\r\n')).toBe('model = "o3"\r\npersonality = "pragmatic"\r\n\r\n[t]\r\na = 1\r\n');
    expect(textOf('\uFEFFmodel = "o3"\n')).toBe('\uFEFFmodel = "o3"\npersonality = "pragmatic"\n');
    expect(textOf('\uFEFF')).toBe('\uFEFFpersonality = "pragmatic"\n');
    expect(textOf('\uFEFF[t]\r\n')).toBe('\uFEFFpersonality = "pragmatic"\r\n[t]\r\n');
  });
});

describe('legacy instructions without developer_instructions: renamed in place', () => {
  const cases: ReadonlyArray<[string, string]> = [
    ['basic', 'instructions = "Be brief.\\nUse \\"tables\\"."'],
    ['literal', "instructions = 'C:\\path\\to'"],
    ['multi-line basic', 'instructions = """\nBe brief.\n  Use "tables" \\\n  please.\n"""'],
    ['multi-line literal', "instructions = '''\nBe brief.\n\\n stays as written\n'''"],
  ];
  for (const [style, line] of cases) {
    it(`keeps a ${style} value byte for byte, with its trailing comment`, () => {
      const text = `personality = "friendly"\n${line} # legacy\nmodel = "o3"\n`;
      const expected = `personality = "friendly"\n${line.replace(/^instructions/, 'developer_instructions')} # legacy\nmodel = "o3"\n`;
      const result = normalized(text);
      expect(result.text).toBe(expected);
      expect(result.changes).toEqual([{ _tag: 'InstructionsRenamed' }]);
      expect(parse(result.text)['developer_instructions']).toBe(parse(text)['instructions']);
    });
  }

  it('recognises a quoted key, with escapes, and keeps the spacing', () => {
    expect(textOf('personality = "none"\n  "instr\\u0075ctions"   =   "x"\n')).toBe('personality = "none"\n  developer_instructions   =   "x"\n');
    expect(textOf("personality = \"none\"\n'instructions'='x'\n")).toBe("personality = \"none\"\ndeveloper_instructions='x'\n");
  });

  it('removes an empty legacy value and adds nothing', () => {
    const result = normalized('personality = "none"\ninstructions = "" # empty\nmodel = "o3"\n');
    expect(result.text).toBe('personality = "none"\nmodel = "o3"\n');
    expect(result.changes).toEqual([{ _tag: 'InstructionsRemoved', reason: 'Empty' }]);
  });

  it('puts personality where the removed line was when it was the last root key', () => {
    expect(textOf('model = "o3"\ninstructions = ""\n[t]\n')).toBe('model = "o3"\npersonality = "pragmatic"\n[t]\n');
    expect(textOf('instructions = ""')).toBe('personality = "pragmatic"\n');
    expect(textOf('a = 1\ninstructions = ""')).toBe('a = 1\npersonality = "pragmatic"\n');
  });
});

describe('legacy instructions with developer_instructions: appended after a blank line', () => {
  it('appends, removes every line of the legacy key and nothing else', () => {
    const text = [
      '# top',
      'developer_instructions = "Answer in French." # mine',
      '',
      '# legacy below',
      "instructions = '''",
      'Be brief.',
      "''' # old",
      '# after',
      'model = "o3"',
      '',
    ].join('\n');
    const result = normalized(text);
    expect(result.text).toBe(
      ['# top', 'developer_instructions = """', 'Answer in French.', '', 'Be brief.', '""" # mine', '', '# legacy below', '# after', 'model = "o3"', 'personality = "pragmatic"', ''].join(
        '\n',
      ),
    );
    expect(result.changes).toEqual([{ _tag: 'InstructionsAppended' }, { _tag: 'PersonalityAdded', personality: 'pragmatic' }]);
    expect(parse(result.text)['developer_instructions']).toBe('Answer in French.\n\nBe brief.\n');
  });

  it('writes the merged value so that it reads back exactly (quotes, backslashes, control characters)', () => {
    const text = 'personality = "none"\ndeveloper_instructions = \'C:\\dir\'\ninstructions = "say \\"\\"\\"hi\\"\\"\\" \\\\ \\u0001 \\t\\r\\nnext"\n';
    const result = normalized(text);
    expect(parse(result.text)['developer_instructions']).toBe('C:\\dir\n\nsay """hi""" \\ \u0001 \t\r\nnext');
  });

  it('uses a single-line string in a CRLF file, so no lone line feed is written', () => {
    const text = 'personality = "none"\r\ndeveloper_instructions = "a"\r\ninstructions = "b"\r\n';
    const result = normalized(text);
    expect(result.text).toBe('personality = "none"\r\ndeveloper_instructions = "a\\n\\nb"\r\n');
  });

  it('uses CRLF line breaks inside a multi-line string of a CRLF file when the text has them', () => {
    const text = 'personality = "none"\r\ndeveloper_instructions = """\r\nline 1\r\nline 2"""\r\ninstructions = "b"\r\n';
    const result = normalized(text);
    expect(parse(result.text)['developer_instructions']).toBe('line 1\r\nline 2\n\nb');
    expect(result.text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('drops the legacy key when developer_instructions already contains its text', () => {
    const result = normalized('personality = "none"\ndeveloper_instructions = "Be brief. Always."\ninstructions = "Be brief."\n');
    expect(result.text).toBe('personality = "none"\ndeveloper_instructions = "Be brief. Always."\n');
    expect(result.changes).toEqual([{ _tag: 'InstructionsRemoved', reason: 'AlreadyContained' }]);
  });

  it("appends to the user's copy, before Wework's routing block", () => {
    const developer = composeDeveloperInstructions('Answer in French.', 'Open links in the embedded browser.');
    const text = `personality = "none"\ndeveloper_instructions = ${JSON.stringify(developer)}\ninstructions = "Be brief."\n`;
    const after = parse(normalized(text).text)['developer_instructions'];
    expect(after).toBe(composeDeveloperInstructions('Answer in French.\n\nBe brief.', 'Open links in the embedded browser.'));
    expect(splitDeveloperInstructions(String(after)).userCopy).toBe('Answer in French.\n\nBe brief.');
  });
});

describe('what normalization leaves alone', () => {
  it('a legacy value that is not a string, with a warning', () => {
    for (const text of ['personality = "none"\ninstructions = 42\n', 'personality = "none"\ninstructions.text = "x"\n', 'personality = "none"\n[instructions]\ntext = "x"\n']) {
      const result = normalized(text);
      expect(result.text).toBe(text);
      expect(result.warnings).toEqual([expect.objectContaining({ _tag: 'LegacyInstructionsKept', reason: 'InstructionsNotAString' })]);
    }
  });

  it('the legacy key when developer_instructions is not a string, with a warning', () => {
    const text = 'personality = "none"\ninstructions = "x"\ndeveloper_instructions = ["y"]\n';
    const result = normalized(text);
    expect(result.text).toBe(text);
    expect(result.warnings).toEqual([expect.objectContaining({ _tag: 'LegacyInstructionsKept', reason: 'DeveloperInstructionsNotAString' })]);
  });

  it('`instructions` inside tables', () => {
    const text = 'personality = "none"\n[profiles.fast]\ninstructions = "x"\n[[agents]]\ninstructions = "y"\n';
    expect(normalized(text)).toEqual({ text, changes: [], warnings: [] });
  });

  it('inline tables, dotted keys, dates and every other byte', () => {
    const text = [
      '\t# indented comment',
      'a.b = { c = "instructions = 1", d = [1, 2] }   # trailing',
      '"quoted key" = 1979-05-27 07:32:00-07:00',
      "x = [ # open",
      "  '''",
      "multi''',",
      ']',
      'instructions = "legacy"',
      '',
    ].join('\n');
    expect(textOf(text)).toBe(text.replace('instructions = "legacy"\n', 'developer_instructions = "legacy"\npersonality = "pragmatic"\n'));
  });
});

describe('malformed TOML', () => {
  it('is never rewritten: a Left with the 1-based position and smol-toml reason only', () => {
    const text = '[mcp_servers.forms.env]\nAPI_TOKEN = "sk-live-secret"\nbroken = = 1\n';
    const error = failure(text);
    expect(error).toEqual({ _tag: 'MalformedConfig', line: 3, column: 10, message: 'invalid value' });
    expect(JSON.stringify(error)).not.toContain('sk-live-secret');
  });

  it('reports duplicate keys and lone carriage returns', () => {
    expect(failure('a = 1\na = 2\n')).toMatchObject({ _tag: 'MalformedConfig', line: 2, message: 'trying to redefine an already defined table or value' });
    expect(failure('a = 1\r')).toMatchObject({ _tag: 'MalformedConfig', line: 1, message: 'each key-value declaration must be followed by an end-of-line' });
  });
});
