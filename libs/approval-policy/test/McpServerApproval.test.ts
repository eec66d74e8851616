import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonRecord } from '@wework/codex-protocol';
import {
  approvalDeclarations,
  asksBeforeToolCalls,
  managedMcpServers,
  mergeMcpServerEntries,
  strongerApprovalMode,
  withManagedApproval,
  type ToolsApprovalMode,
} from '../src/McpServerApproval.js';
import { mcpServerEntryArbitrary, mcpServersArbitrary, toolsApprovalModeArbitrary } from '../src/testing.js';

const right = <A>(either: E.Either<unknown, A>): A => {
  if (E.isLeft(either)) throw new Error(`expected Right, got ${JSON.stringify(either.left)}`);
  return either.right;
};

/** Every permutation of a short list. */
const permutations = <A>(items: ReadonlyArray<A>): ReadonlyArray<ReadonlyArray<A>> =>
  items.length <= 1 ? [items] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));

const serverMode = (entry: JsonRecord): unknown => entry['default_tools_approval_mode'];
const toolMode = (entry: JsonRecord, tool: string): unknown => ((entry['tools'] as Record<string, Record<string, unknown>> | undefined)?.[tool] ?? {})['approval_mode'];

describe('strongerApprovalMode', () => {
  it('orders prompt > writes > approve > auto > not declared', () => {
    expect(strongerApprovalMode('approve', 'prompt')).toBe('prompt');
    expect(strongerApprovalMode('writes', 'approve')).toBe('writes');
    expect(strongerApprovalMode('auto', 'approve')).toBe('approve');
    expect(strongerApprovalMode(undefined, 'auto')).toBe('auto');
    expect(strongerApprovalMode(undefined, undefined)).toBeUndefined();
  });

  it('is commutative and associative', () => {
    const mode = fc.option(toolsApprovalModeArbitrary, { nil: undefined });
    fc.assert(
      fc.property(mode, mode, mode, (a, b, c) => {
        expect(strongerApprovalMode(a, b)).toBe(strongerApprovalMode(b, a));
        expect(strongerApprovalMode(a, strongerApprovalMode(b, c))).toBe(strongerApprovalMode(strongerApprovalMode(a, b), c));
      }),
    );
  });

  it('knows which modes ask', () => {
    expect((['auto', 'prompt', 'writes', 'approve'] as const).map(asksBeforeToolCalls)).toEqual([true, true, true, false]);
  });
});

describe('approvalDeclarations', () => {
  it('reads the server and per-tool modes', () => {
    expect(approvalDeclarations({ command: 'x', default_tools_approval_mode: 'prompt', tools: { deploy: { approval_mode: 'approve' }, echo: { enabled: true } } })).toEqual(
      E.right({ server: 'prompt', tools: { deploy: 'approve' } }),
    );
  });

  it('refuses values Codex would refuse, with the path', () => {
    expect(approvalDeclarations({ default_tools_approval_mode: 'bogus' }, ['mcp_servers', 'forms'])).toMatchObject(
      E.left({ _tag: 'InvalidApprovalMode', path: ['mcp_servers', 'forms', 'default_tools_approval_mode'], value: 'bogus' }),
    );
    expect(approvalDeclarations({ tools: { deploy: { approval_mode: 1 } } })).toMatchObject(E.left({ _tag: 'InvalidApprovalMode', path: ['tools', 'deploy', 'approval_mode'] }));
    expect(approvalDeclarations({ tools: [] })).toMatchObject(E.left({ _tag: 'NotATable', path: ['tools'] }));
    expect(approvalDeclarations('x')).toMatchObject(E.left({ _tag: 'NotATable', path: [] }));
  });
});

describe('withManagedApproval', () => {
  it('defaults Wework-managed servers to approve', () => {
    expect(withManagedApproval({ command: 'node', args: ['s.js'] })).toEqual(E.right({ command: 'node', args: ['s.js'], default_tools_approval_mode: 'approve' }));
    expect(withManagedApproval({ command: 'node', default_tools_approval_mode: 'auto' })).toEqual(E.right({ command: 'node', default_tools_approval_mode: 'approve' }));
  });

  it('keeps an explicit prompt (and writes), and per-tool declarations as declared', () => {
    expect(withManagedApproval({ default_tools_approval_mode: 'prompt' })).toEqual(E.right({ default_tools_approval_mode: 'prompt' }));
    expect(withManagedApproval({ default_tools_approval_mode: 'writes' })).toEqual(E.right({ default_tools_approval_mode: 'writes' }));
    const entry = { command: 'x', tools: { deploy: { approval_mode: 'prompt' }, echo: { approval_mode: 'auto' } } };
    expect(withManagedApproval(entry)).toEqual(E.right({ ...entry, default_tools_approval_mode: 'approve' }));
  });

  it('keeps every other key, sets a mode that does not ask unless one was declared, and is idempotent', () => {
    fc.assert(
      fc.property(mcpServerEntryArbitrary, (entry) => {
        const managed = right(withManagedApproval(entry));
        for (const [key, value] of Object.entries(entry)) if (key !== 'default_tools_approval_mode') expect(managed[key]).toEqual(value);
        const declared = entry['default_tools_approval_mode'];
        expect(serverMode(managed)).toBe(declared === 'prompt' || declared === 'writes' ? declared : 'approve');
        expect(right(withManagedApproval(managed))).toEqual(managed);
      }),
    );
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        withManagedApproval(json);
        approvalDeclarations(json);
      }),
    );
  });
});

describe('mergeMcpServerEntries and managedMcpServers', () => {
  it('lets later layers win for ordinary keys', () => {
    expect(mergeMcpServerEntries([{ command: 'a', env: { A: '1' } }, { command: 'b', env: { B: '2' } }])).toEqual(E.right({ command: 'b', env: { A: '1', B: '2' } }));
  });

  it('keeps an explicit prompt from any layer, in any order', () => {
    fc.assert(
      fc.property(fc.array(mcpServerEntryArbitrary, { minLength: 1, maxLength: 4 }), fc.nat(), (layers, at) => {
        const withPrompt = [...layers];
        const i = at % withPrompt.length;
        withPrompt[i] = { ...withPrompt[i], default_tools_approval_mode: 'prompt', tools: { deploy: { approval_mode: 'prompt' } } };
        for (const order of permutations(withPrompt)) {
          const merged = right(mergeMcpServerEntries(order));
          expect(serverMode(merged)).toBe('prompt');
          expect(toolMode(merged, 'deploy')).toBe('prompt');
          const managed = right(managedMcpServers(order.map((entry) => ({ forms: entry }))));
          expect(serverMode(managed['forms'] ?? {})).toBe('prompt');
          expect(toolMode(managed['forms'] ?? {}, 'deploy')).toBe('prompt');
        }
      }),
      { numRuns: 50 },
    );
  });

  it('merges approval modes independently of the order of the layers', () => {
    fc.assert(
      fc.property(fc.array(mcpServerEntryArbitrary, { minLength: 1, maxLength: 3 }), (layers) => {
        const modes = permutations(layers).map((order) => {
          const merged = right(mergeMcpServerEntries(order));
          const tools = Object.fromEntries(Object.keys((merged['tools'] as object | undefined) ?? {}).map((tool) => [tool, toolMode(merged, tool)]));
          return { server: serverMode(merged), tools };
        });
        for (const m of modes) expect(m).toEqual(modes[0]);
      }),
      { numRuns: 50 },
    );
  });

  it('gives every managed server a mode, approve unless a stricter one is declared', () => {
    fc.assert(
      fc.property(fc.array(mcpServersArbitrary, { maxLength: 3 }), (layers) => {
        const servers = right(managedMcpServers(layers));
        const names = new Set(layers.flatMap((layer) => Object.keys(layer)));
        expect(new Set(Object.keys(servers))).toEqual(names);
        for (const [name, entry] of Object.entries(servers)) {
          const declared = layers.map((layer) => layer[name]?.['default_tools_approval_mode'] as ToolsApprovalMode | undefined);
          const strongest = declared.reduce<ToolsApprovalMode | undefined>(strongerApprovalMode, undefined);
          expect(serverMode(entry)).toBe(strongest === 'prompt' || strongest === 'writes' ? strongest : 'approve');
        }
      }),
    );
  });

  it('reports a bad value with its layer and never throws on arbitrary JSON', () => {
    expect(managedMcpServers([{ a: {} }, { a: { default_tools_approval_mode: 'ask' } }])).toMatchObject(E.left({ _tag: 'InvalidApprovalMode', path: ['1', 'a', 'default_tools_approval_mode'] }));
    expect(managedMcpServers([[]])).toMatchObject(E.left({ _tag: 'NotATable', path: ['0'] }));
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 3 }), (layers) => {
        managedMcpServers(layers);
        mergeMcpServerEntries(layers);
      }),
    );
  });
});
