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
    expect(decodeScenario({ ...minimal, model: { script: [{ steps: [{ sya: 'x' }] }] } })).toMatchObject({ left: { _tag: 'ScenarioScriptInvalid' } });
    expect(decodeScenario({ ...minimal, plugins: [{ name: 'a', sample: 'forms' }, { name: 'a', command: 'x' }] })).toMatchObject({ left: { _tag: 'ScenarioDuplicatePlugin', name: 'a' } });
    expect(parseScenario('{')).toMatchObject({ left: { _tag: 'ScenarioJsonSyntaxError' } });
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
