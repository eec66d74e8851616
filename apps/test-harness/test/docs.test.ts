import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { decodeScript } from '@wework/scripted-model';
import { describe, expect, it } from 'vitest';
import { decodeScenario } from '../src/index.js';

const docPath = join(dirname(fileURLToPath(import.meta.url)), '../../../docs/harness.md');

const jsonBlocks = (markdown: string): unknown[] => [...markdown.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1] ?? 'null'));

describe('docs/harness.md', () => {
  it('every scenario and script example in it is valid', async () => {
    const blocks = jsonBlocks(await readFile(docPath, 'utf8'));
    const scenarios = blocks.filter((block) => typeof block === 'object' && block !== null && 'turns' in block);
    const scripts = blocks.filter(Array.isArray);
    expect(scenarios.length).toBeGreaterThanOrEqual(2);
    expect(scripts.length).toBeGreaterThanOrEqual(1);
    for (const scenario of scenarios) expect(decodeScenario(scenario), JSON.stringify(scenario)).toSatisfy(E.isRight);
    for (const script of scripts) expect(decodeScript(script), JSON.stringify(script)).toSatisfy(E.isRight);
  });

  it('shows the bundled forms-choose-strategy scenario verbatim', async () => {
    const doc = jsonBlocks(await readFile(docPath, 'utf8'));
    const file = JSON.parse(await readFile(join(dirname(docPath), '../apps/test-harness/scenarios/forms-choose-strategy.json'), 'utf8')) as { description?: string };
    const { description: _description, ...withoutDescription } = file;
    expect(doc).toContainEqual(withoutDescription);
  });
});
