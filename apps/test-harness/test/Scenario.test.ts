import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { decodeScenario, formatScenarioError, parseScenario } from '../src/Scenario.js';

const minimal = { name: 'n', model: { script: [{ steps: [{ say: 'hi' }] }] }, turns: [{ input: 'hello' }] };

describe('decodeScenario', () => {
  it('decodes a minimal scenario and its model script', () => {
    const decoded = decodeScenario(minimal);
    expect(decoded).toEqual(E.right({ ...minimal, model: { script: [{ kind: 'steps', steps: [{ kind: 'say', text: 'hi' }] }] } }));
  });

  it('decodes both kinds of plugin', () => {
    const scenario = { ...minimal, plugins: [{ name: 'a', sample: 'forms' }, { name: 'b', command: 'node', args: ['x.js'], env: { K: 'v' }, toolsApproval: 'prompt' }] };
    expect(E.isRight(decodeScenario(scenario))).toBe(true);
  });

  it('names the path of an unknown key', () => {
    const decoded = decodeScenario({ ...minimal, user: { answers: [{ acton: 'accept' }] } });
    expect(E.isLeft(decoded) && formatScenarioError(decoded.left)).toMatch(/user\.answers\.0.*unknown key "acton"/);
  });

  it('reports an invalid script, duplicate plugins and bad JSON as typed errors', () => {
    expect(decodeScenario({ ...minimal, model: { script: [{ steps: [{ sya: 'x' }] }] } })).toMatchObject({
      left: { _tag: 'ScenarioInvalid', issues: [{ path: expect.stringMatching(/^model\.script/) }] },
    });
    expect(decodeScenario({ ...minimal, plugins: [{ name: 'a', sample: 'forms' }, { name: 'a', command: 'x' }] })).toEqual(
      E.left({ _tag: 'ScenarioInvalid', issues: [{ path: 'plugins.1.name', expected: 'a name no earlier plugin has', actual: 'a string (1 characters)', message: 'the same name as plugins.0; plugin names must be unique' }] }),
    );
    expect(parseScenario('{')).toEqual(E.left({ _tag: 'ScenarioJsonSyntaxError', line: 1, column: 2, expected: "a property name in double quotes or '}'" }));
  });

  it('reports every problem of a scenario at once', () => {
    const decoded = decodeScenario({
      ...minimal,
      nmae: 'typo',
      turns: [{ input: 'hello', colour: 'red' }],
      model: { script: [{ steps: [{ sya: 'x' }] }] },
      user: { answers: [{ acton: 'accept' }], otherwise: 'shrug' },
      plugins: [{ name: 'a', sample: 'forms' }, { name: 'a', command: 'x' }],
    });
    if (E.isRight(decoded) || decoded.left._tag !== 'ScenarioInvalid') throw new Error('expected ScenarioInvalid');
    const paths = decoded.left.issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['nmae', 'turns.0.colour', 'user.answers.0.acton', 'user.otherwise', 'plugins.1.name']));
    expect(paths.some((path) => path.startsWith('model.script'))).toBe(true);
    expect(formatScenarioError(decoded.left).split('\n').filter((line) => line.startsWith('  - '))).toHaveLength(paths.length);
  });

  it('says on which line and column a file stops being JSON', () => {
    const text = '{\n  "name": "n",\n  "turns": [\n    { "input": "hi" }\n    { "input": "again" }\n  ]\n}\n';
    const parsed = parseScenario(text);
    expect(parsed).toEqual(E.left({ _tag: 'ScenarioJsonSyntaxError', line: 5, column: 5, expected: "',' or ']'" }));
    if (E.isLeft(parsed)) expect(formatScenarioError(parsed.left)).toBe("the scenario is not valid JSON: line 5, column 5: expected ',' or ']'");
  });

  it('never throws on arbitrary JSON, and every error formats to a message', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.record({ name: fc.jsonValue(), model: fc.jsonValue(), turns: fc.jsonValue(), plugins: fc.jsonValue() })), (json) => {
        const decoded = decodeScenario(json);
        if (E.isLeft(decoded)) expect(formatScenarioError(decoded.left).length).toBeGreaterThan(0);
      }),
    );
  });
});
