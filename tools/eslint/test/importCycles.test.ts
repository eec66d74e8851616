/**
 * No project has a cycle of relative imports among its `src/` files. The check reads every
 * project of the workspace; its detection is pinned on small trees first.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findImportCycles, readProjectSources } from '../importCycles.mjs';

const workspaceRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');


describe('findImportCycles', () => {
  it('finds a cycle through type-only imports and re-exports, with .js specifiers naming .ts files', () => {
    const sources = new Map([
      ['libs/x/src/a.ts', "import { b } from './b.js';\nexport const a = b;\n"],
      ['libs/x/src/b.ts', "export type { C } from './sub/c.js';\nexport const b = 1;\n"],
      ['libs/x/src/sub/c.ts', "import type { A } from '../a.js';\nexport type C = A;\n"],
      ['libs/x/src/d.ts', "import { a } from './a.js';\nexport const d = a;\n"],
    ]);
    expect(findImportCycles(sources)).toEqual([['libs/x/src/a.ts', 'libs/x/src/b.ts', 'libs/x/src/sub/c.ts']]);
  });

  it('finds a module importing itself, and ignores dynamic imports and packages', () => {
    const sources = new Map([
      ['libs/x/src/self.ts', "import * as me from './self.js';\nexport const x = me;\n"],
      ['libs/x/src/lazy.ts', "import * as t from 'io-ts';\nexport const load = () => import('./lazy2.js');\nexport const u = t;\n"],
      ['libs/x/src/lazy2.ts', "import { load } from './lazy.js';\nexport const again = load;\n"],
    ]);
    expect(findImportCycles(sources)).toEqual([['libs/x/src/self.ts']]);
  });

  it('reports no cycle in a tree without one', () => {
    const sources = new Map([
      ['libs/x/src/index.ts', "export * from './a.js';\nexport * from './b.js';\n"],
      ['libs/x/src/a.ts', "import { b } from './b.js';\nexport const a = b;\n"],
      ['libs/x/src/b.ts', 'export const b = 1;\n'],
    ]);
    expect(findImportCycles(sources)).toEqual([]);
  });
});

describe('the workspace', () => {
  it('has no import cycle among the src/ files of any project', () => {
    const cycles = findImportCycles(readProjectSources(workspaceRoot));
    expect(cycles).toEqual([]);
  });

  it('reads the generated protocol codecs and finds no cycle among them', () => {
    const sources = readProjectSources(workspaceRoot);
    expect([...sources.keys()].filter((path) => path.startsWith('libs/codex-protocol/src/codecs/')).length).toBeGreaterThan(10);
    expect(findImportCycles(sources).filter((cycle) => cycle.some((path) => path.startsWith('libs/codex-protocol/')))).toEqual([]);
  });
});
