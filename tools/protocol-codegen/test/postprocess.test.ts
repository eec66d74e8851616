import { describe, expect, test } from 'vitest';
import { addJsExtensions } from '../src/postprocess.mjs';

describe('addJsExtensions', () => {
  const tree = new Map([
    ['index.ts', '// header\nexport type { A } from "./A";\nexport * as v2 from "./v2";\n'],
    ['A.ts', 'import type { B } from "./v2/B";\n\nexport type A = { b: B, };\n'],
    ['v2/index.ts', 'export type { B } from "./B";\n'],
    ['v2/B.ts', 'import type { JsonValue } from "../serde_json/JsonValue";\nexport type B = JsonValue;\n'],
    ['serde_json/JsonValue.ts', 'export type JsonValue = string;\n'],
  ]);

  test('adds .js to relative specifiers and /index.js to directories, changing nothing else', () => {
    const out = addJsExtensions(tree);
    expect(out.get('index.ts')).toBe('// header\nexport type { A } from "./A.js";\nexport * as v2 from "./v2/index.js";\n');
    expect(out.get('A.ts')).toBe('import type { B } from "./v2/B.js";\n\nexport type A = { b: B, };\n');
    expect(out.get('v2/B.ts')).toBe('import type { JsonValue } from "../serde_json/JsonValue.js";\nexport type B = JsonValue;\n');
    expect(out.get('serde_json/JsonValue.ts')).toBe(tree.get('serde_json/JsonValue.ts'));
  });

  test('fails on an import it cannot resolve', () => {
    expect(() => addJsExtensions(new Map([['A.ts', 'import type { X } from "./Missing";\nexport type A = X;\n']]))).toThrow(
      /cannot resolve import "\.\/Missing"/,
    );
  });
});
