import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { inspectManifest } from '../src/index.js';

describe('plugin manifest', () => {
  it('reads a Codex manifest and lists its capabilities', () => {
    const inspected = inspectManifest({
      name: ' notes ',
      version: ' 1.0.0 ',
      description: 'Notes',
      skills: ['./skills/a', './skills/b'],
      mcpServers: './.mcp.json',
      interface: { displayName: 'Notes', defaultPrompt: 'Try it', screenshots: ['./s.png'] },
      commands: './commands',
    });
    expect(E.isRight(inspected) && inspected.right.name).toBe('notes');
    expect(E.isRight(inspected) && inspected.right.version).toBe('1.0.0');
    expect(E.isRight(inspected) && inspected.right.capabilities).toEqual({ skills: true, mcpServers: true, apps: false, hooks: false, unknown: ['commands'] });
  });

  it('rejects known fields of the wrong type, like Codex', () => {
    expect(E.isLeft(inspectManifest({ name: 'x', skills: 3 }))).toBe(true);
    expect(E.isLeft(inspectManifest({ name: 'x', interface: { displayName: 1 } }))).toBe(true);
    expect(E.isLeft(inspectManifest([]))).toBe(true);
    expect(E.isLeft(inspectManifest(null))).toBe(true);
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => void inspectManifest(value)));
  });
});
