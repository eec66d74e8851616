/**
 * `--print-schema` and `--print-openrpc`: the command line asks for a document of the host protocol
 * instead of serving, like `--help` and `--version`, and the usage lists them.
 */
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { parseServeArguments, parseServeInvocation, SERVE_USAGE } from '../src/host/ServeArguments.js';

describe('--print-schema and --print-openrpc', () => {
  it('ask for the JSON Schema or the OpenRPC document, whatever else is given', () => {
    expect(parseServeInvocation(['--print-schema'])).toEqual(E.right({ _tag: 'PrintDocument', document: 'jsonSchema' }));
    expect(parseServeInvocation(['--print-openrpc'])).toEqual(E.right({ _tag: 'PrintDocument', document: 'openRpc' }));
    expect(parseServeInvocation(['--stdio', '--print-schema'])).toEqual(E.right({ _tag: 'PrintDocument', document: 'jsonSchema' }));
  });

  it('give way to --help and --version, and refuse to be given together', () => {
    expect(parseServeInvocation(['--print-schema', '--help'])).toEqual(E.right({ _tag: 'Help' }));
    expect(parseServeInvocation(['--print-openrpc', '--version'])).toEqual(E.right({ _tag: 'Version' }));
    expect(parseServeInvocation(['--print-schema', '--print-openrpc'])).toMatchObject({ left: expect.stringContaining('choose one of --print-schema and --print-openrpc') });
    expect(E.isLeft(parseServeInvocation(['--print-schema=yes']))).toBe(true);
  });

  it('do not serve', () => {
    expect(parseServeArguments(['--stdio', '--print-schema'])).toMatchObject({ left: expect.stringContaining('--print-schema does not serve') });
    expect(parseServeArguments(['--stdio', '--print-openrpc'])).toMatchObject({ left: expect.stringContaining('--print-openrpc does not serve') });
  });

  it('are in the usage', () => {
    expect(SERVE_USAGE).toContain('--print-schema');
    expect(SERVE_USAGE).toContain('--print-openrpc');
  });
});
