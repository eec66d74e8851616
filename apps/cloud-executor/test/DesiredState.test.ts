import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMessage, MAX_MESSAGE_LENGTH, type DesiredStateMessage } from '../src/DesiredState.js';

const identifier = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,20}$/);
const message: fc.Arbitrary<DesiredStateMessage> = fc.record({
  type: fc.constant('desiredState' as const),
  revision: fc.nat() as fc.Arbitrary<DesiredStateMessage['revision']>,
  plugins: fc.uniqueArray(
    fc.record({ name: identifier, marketplace: identifier, version: identifier, package: fc.record({ path: identifier.map((p) => `/downloads/${p}`) }) }),
    { selector: (p) => `${p.name}@${p.marketplace}`, maxLength: 5 },
  ),
});

describe('decodeMessage', () => {
  it('decodes every well-formed message to itself', () => {
    fc.assert(
      fc.property(message, (m) => {
        expect(decodeMessage(JSON.stringify(m))).toEqual(E.right(m));
      }),
    );
  });

  it('never throws, whatever the line (arbitrary text and arbitrary JSON)', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify(v))), (line) => void decodeMessage(line)));
  });

  it('names what is wrong, without echoing the line', () => {
    expect(decodeMessage('{"type":"desiredState","revision":1,"plugins":[{"name":"x"}]}')).toEqual(
      E.left({
        _tag: 'InvalidMessage',
        issues: ['plugins.0.marketplace: expected string', 'plugins.0.version: expected string', 'plugins.0.package: expected { path: string }'],
      }),
    );
    expect(decodeMessage('secret-token garbage')).toEqual(E.left({ _tag: 'InvalidJson' }));
    expect(decodeMessage('{"type":"hello"}')).toMatchObject({ left: { _tag: 'InvalidMessage' } });
    expect(decodeMessage('{"type":"desiredState","revision":1.5,"plugins":[]}')).toMatchObject({ left: { _tag: 'InvalidMessage', issues: ['revision: expected Int'] } });
  });

  it('refuses unsafe identifiers, relative package paths, duplicates and negative revisions', () => {
    const plugin = (over: object) => ({ name: 'notes', marketplace: 'wegent', version: '1.0.0', package: { path: '/p' }, ...over });
    const line = (plugins: object[], revision = 1) => JSON.stringify({ type: 'desiredState', revision, plugins });
    expect(decodeMessage(line([plugin({ name: '../x' })]))).toMatchObject({ left: { issues: [expect.stringContaining('plugins.0.name')] } });
    expect(decodeMessage(line([plugin({ version: '1.0/..' })]))).toMatchObject({ left: { issues: [expect.stringContaining('plugins.0.version')] } });
    expect(decodeMessage(line([plugin({ package: { path: 'relative/dir' } })]))).toMatchObject({ left: { issues: ['plugins.0.package.path: expected an absolute path'] } });
    expect(decodeMessage(line([plugin({}), plugin({ version: '2.0.0' })]))).toMatchObject({ left: { issues: ['plugins.1: notes@wegent is listed twice'] } });
    expect(decodeMessage(line([], -1))).toMatchObject({ left: { issues: ['revision: expected a non-negative integer'] } });
  });

  it('refuses an oversized line before parsing it', () => {
    expect(decodeMessage(' '.repeat(MAX_MESSAGE_LENGTH + 1))).toEqual(E.left({ _tag: 'MessageTooLarge', length: MAX_MESSAGE_LENGTH + 1, limit: MAX_MESSAGE_LENGTH }));
  });
});
