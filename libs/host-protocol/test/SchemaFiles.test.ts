/**
 * The committed schema documents (`schema/host-protocol.schema.json`, `schema/host-protocol.openrpc.json`)
 * are what the codecs generate: a change to a codec without regenerating them fails here.
 */
import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { hostProtocolSchemaFiles } from '../src/index.js';

const files = hostProtocolSchemaFiles();

describe('the committed schema documents', () => {
  it('are generated without error', () => {
    expect(E.isRight(files)).toBe(true);
  });

  it.each(E.isRight(files) ? files.right.map((file) => [file.path, file.text] as const) : [])('%s is what the codecs generate', (path, generated) => {
    const committed = readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
    expect(
      committed === generated,
      `libs/host-protocol/${path} is not what the codecs generate: run \`npm run schema:generate\` at the workspace root and commit the result`,
    ).toBe(true);
  });
});
