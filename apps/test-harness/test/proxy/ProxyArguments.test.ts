import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { formatProxyArguments, parseProxyArguments } from '../../src/proxy/index.js';

describe('parseProxyArguments', () => {
  it('reads --log and everything after -- as the command, untouched', () => {
    expect(parseProxyArguments(['--log', 'a.jsonl', '--', 'node', 'server.js', '--log', 'x', '--'])).toEqual(
      E.right({ logFile: 'a.jsonl', command: 'node', args: ['server.js', '--log', 'x', '--'] }),
    );
    expect(parseProxyArguments(['--log=b.jsonl', '--', 'srv'])).toEqual(E.right({ logFile: 'b.jsonl', command: 'srv', args: [] }));
  });

  it('explains what is wrong', () => {
    const message = (argv: string[]) => {
      const r = parseProxyArguments(argv);
      return E.isLeft(r) ? r.left.message : 'ok';
    };
    expect(message(['--log', 'a'])).toBe('missing "--" before the command to proxy');
    expect(message(['--log', 'a', '--'])).toBe('missing the command to proxy after "--"');
    expect(message(['--', 'srv'])).toBe('missing --log <file.jsonl>');
    expect(message(['--log', '--', 'srv'])).toBe('--log needs a file name');
    expect(message(['--log', 'a', '--log', 'b', '--', 'srv'])).toBe('--log given more than once');
    expect(message(['--verbose', '--', 'srv'])).toBe('unknown option "--verbose"');
  });

  it('round trips: parse(format(a)) = a', () => {
    const proxy = fc.record({ logFile: fc.string({ minLength: 1 }), command: fc.string({ minLength: 1 }), args: fc.array(fc.string()) });
    fc.assert(
      fc.property(proxy, (p) => {
        expect(parseProxyArguments(formatProxyArguments(p))).toEqual(E.right(p));
      }),
    );
  });

  it('never throws on arbitrary arguments', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom('--', '--log', '--log='))), (argv) => void parseProxyArguments(argv)));
  });
});
