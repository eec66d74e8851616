/**
 * The workspace lint configuration, applied to code placed in the libraries: a `type:pure` library may
 * not touch Node built-ins, IO packages, the process, the clock or an IO library; its `src/node/`
 * folder and `type:io` libraries may.
 */
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: workspaceRoot });

async function ruleIdsFor(relativePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(workspaceRoot, relativePath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? 'fatal');
}

describe('purity of type:pure libraries', () => {
  const pureFile = 'libs/codex-protocol/src/Example.ts';

  it('fails lint when a pure library imports node:fs', async () => {
    expect(await ruleIdsFor(pureFile, "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n")).toContain('no-restricted-imports');
  });

  it('fails lint for a bare built-in, an IO package, or an IO library', async () => {
    expect(await ruleIdsFor(pureFile, "import { spawn } from 'child_process';\nexport const s = spawn;\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor(pureFile, "import { createMessageConnection } from 'vscode-jsonrpc/node';\nexport const c = createMessageConnection;\n")).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor(pureFile, "import { createAppServerClient } from '@wework/app-server-client';\nexport const c = createAppServerClient;\n")).toContain(
      '@nx/enforce-module-boundaries',
    );
  });

  it('fails lint on process, timers and clock reads', async () => {
    expect(await ruleIdsFor(pureFile, 'export const home = process.env.HOME;\n')).toContain('no-restricted-globals');
    expect(await ruleIdsFor(pureFile, 'export const later = () => setTimeout(() => undefined, 1);\n')).toContain('no-restricted-globals');
    expect(await ruleIdsFor(pureFile, 'export const now = () => Date.now();\n')).toContain('no-restricted-properties');
    expect(await ruleIdsFor(pureFile, 'export const now = () => new Date();\n')).toContain('no-restricted-syntax');
  });

  it('accepts fp-ts and io-ts in pure code', async () => {
    expect(await ruleIdsFor(pureFile, "import * as t from 'io-ts';\nimport * as E from 'fp-ts/lib/Either.js';\nexport const c = t.string;\nexport const r = E.right(1);\n")).toEqual([]);
  });

  it('lets IO libraries and the node/ folder of a pure library do IO', async () => {
    expect(await ruleIdsFor('libs/app-server-client/src/Example.ts', "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n")).toEqual([]);
    expect(await ruleIdsFor('libs/codex-protocol/src/node/Example.ts', "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n")).toEqual([]);
  });
});
