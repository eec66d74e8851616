/**
 * How Codex asks before running an MCP server's tools, and how Wework sets it for the servers it
 * injects or manages (request-level, bot-level, plugin and built-in persistent servers alike):
 *
 * - `[mcp_servers.<name>] default_tools_approval_mode` defaults to `"approve"`, so normal tool calls
 *   show no "Allow" card (what `approvalPolicy: "never"` used to give under Full access);
 * - an explicit stricter declaration, `"prompt"` (or `"writes"`), from any layer always wins, in any
 *   merge order; `"auto"` is Codex's own default and counts as not declared;
 * - per-tool `[mcp_servers.<name>.tools.<tool>] approval_mode` declarations are kept as declared
 *   (Codex applies them over the server default) and merge by the same rule.
 *
 * Measured on Codex 0.171.0: the modes are `auto`, `prompt`, `writes` and `approve` (any other value
 * makes the whole config fail to load); `auto` and `writes` ask before every call of a tool without
 * annotations; a per-tool `approval_mode` overrides the server default both ways.
 *
 * Every function here is pure: JSON in, JSON or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { isRecord } from '@wework/decode-issues';
import { deepMerge, own, withKey, withoutKey, type JsonRecord } from '@wework/codex-protocol';

/** Codec of Codex's MCP tool approval mode (`default_tools_approval_mode`, `tools.<tool>.approval_mode`). */
export const ToolsApprovalMode = t.keyof({ auto: null, prompt: null, writes: null, approve: null }, 'ToolsApprovalMode');
/** Codex's MCP tool approval mode. */
export type ToolsApprovalMode = t.TypeOf<typeof ToolsApprovalMode>;

/** The mode Wework gives its servers when nothing stricter is declared. */
export const MANAGED_TOOLS_APPROVAL_MODE: ToolsApprovalMode = 'approve';

/** An `[mcp_servers.<name>]` entry (or any TOML table) as plain JSON. */
export type McpServerEntry = JsonRecord;

/** Wework's built-in persistent server for Wegent Connector Apps. */
export const WEGENT_APPS_SERVER = 'wegent_apps';
/** Wework's built-in persistent browser server. */
export const WEWORK_BROWSER_SERVER = 'wework_browser';

/** The server-level key. */
export const SERVER_APPROVAL_KEY = 'default_tools_approval_mode';
/** The per-tool key, inside `tools.<tool>`. */
export const TOOL_APPROVAL_KEY = 'approval_mode';

/** Why an MCP server config could not be read. `path` is where in the input the problem is. */
export type McpConfigError =
  | { readonly _tag: 'InvalidApprovalMode'; readonly path: ReadonlyArray<string>; readonly value: unknown; readonly message: string }
  | { readonly _tag: 'NotATable'; readonly path: ReadonlyArray<string>; readonly value: unknown; readonly message: string };

/** The approval declarations of one server entry. */
export interface ApprovalDeclarations {
  /** `default_tools_approval_mode`, when declared. */
  readonly server: ToolsApprovalMode | undefined;
  /** `tools.<tool>.approval_mode`, for the tools that declare one. */
  readonly tools: Readonly<Record<string, ToolsApprovalMode>>;
}

const PRECEDENCE: Readonly<Record<ToolsApprovalMode, number>> = { auto: 0, approve: 1, writes: 2, prompt: 3 };

const describe = (value: unknown): string => (value === undefined ? 'nothing' : (JSON.stringify(value) ?? typeof value));

/** A `NotATable` error. */
export function notATable(path: ReadonlyArray<string>, value: unknown): McpConfigError {
  return { _tag: 'NotATable', path, value, message: `${path.join('.') || 'the config'} must be a table, got ${describe(value)}` };
}

function invalidMode(path: ReadonlyArray<string>, value: unknown): McpConfigError {
  return { _tag: 'InvalidApprovalMode', path, value, message: `${path.join('.')} must be one of "auto", "prompt", "writes", "approve", got ${describe(value)}` };
}

/**
 * The stronger of two declarations: `prompt` > `writes` > `approve` > `auto` > not declared.
 * Commutative and associative, so a fold over layers does not depend on their order.
 *
 * @example
 * ```ts
 * strongerApprovalMode('approve', 'prompt'); // 'prompt'
 * strongerApprovalMode(undefined, 'auto'); // 'auto'
 * ```
 */
export function strongerApprovalMode(a: ToolsApprovalMode | undefined, b: ToolsApprovalMode | undefined): ToolsApprovalMode | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return PRECEDENCE[b] > PRECEDENCE[a] ? b : a;
}

/** Whether a mode asks the user before (some) tool calls: `prompt`, `writes` and `auto` do; `approve` does not. */
export function asksBeforeToolCalls(mode: ToolsApprovalMode | undefined): boolean {
  return mode !== 'approve';
}

function decodeMode(value: unknown, path: ReadonlyArray<string>): E.Either<McpConfigError, ToolsApprovalMode | undefined> {
  if (value === undefined) return E.right(undefined);
  return ToolsApprovalMode.is(value) ? E.right(value) : E.left(invalidMode(path, value));
}

/**
 * Reads the approval declarations of one `[mcp_servers.<name>]` entry; `path` prefixes error paths.
 *
 * @example
 * ```ts
 * approvalDeclarations({ command: 'x', default_tools_approval_mode: 'prompt', tools: { deploy: { approval_mode: 'approve' } } });
 * // Right({ server: 'prompt', tools: { deploy: 'approve' } })
 * ```
 */
export function approvalDeclarations(entry: unknown, path: ReadonlyArray<string> = []): E.Either<McpConfigError, ApprovalDeclarations> {
  if (!isRecord(entry)) return E.left(notATable(path, entry));
  const server = decodeMode(own(entry, SERVER_APPROVAL_KEY), [...path, SERVER_APPROVAL_KEY]);
  if (E.isLeft(server)) return server;
  const toolsTable = own(entry, 'tools');
  if (toolsTable === undefined) return E.right({ server: server.right, tools: {} });
  if (!isRecord(toolsTable)) return E.left(notATable([...path, 'tools'], toolsTable));
  let tools: Record<string, ToolsApprovalMode> = {};
  for (const [tool, settings] of Object.entries(toolsTable)) {
    if (!isRecord(settings)) return E.left(notATable([...path, 'tools', tool], settings));
    const mode = decodeMode(own(settings, TOOL_APPROVAL_KEY), [...path, 'tools', tool, TOOL_APPROVAL_KEY]);
    if (E.isLeft(mode)) return mode;
    if (mode.right !== undefined) tools = withKey(tools, tool, mode.right);
  }
  return E.right({ server: server.right, tools });
}

function strongestDeclarations(all: ReadonlyArray<ApprovalDeclarations>): ApprovalDeclarations {
  let server: ToolsApprovalMode | undefined;
  let tools: Record<string, ToolsApprovalMode> = {};
  for (const declarations of all) {
    server = strongerApprovalMode(server, declarations.server);
    for (const [tool, mode] of Object.entries(declarations.tools)) {
      const stronger = strongerApprovalMode(own(tools, tool) as ToolsApprovalMode | undefined, mode);
      if (stronger !== undefined) tools = withKey(tools, tool, stronger);
    }
  }
  return { server, tools };
}

function withDeclarations(entry: JsonRecord, declarations: ApprovalDeclarations): JsonRecord {
  let result: JsonRecord = declarations.server === undefined ? withoutKey(entry, SERVER_APPROVAL_KEY) : withKey(entry, SERVER_APPROVAL_KEY, declarations.server);
  const toolModes = Object.entries(declarations.tools);
  if (toolModes.length === 0) return result;
  let tools = (own(result, 'tools') ?? {}) as JsonRecord;
  for (const [tool, mode] of toolModes) tools = withKey(tools, tool, withKey((own(tools, tool) ?? {}) as JsonRecord, TOOL_APPROVAL_KEY, mode));
  result = withKey(result, 'tools', tools);
  return result;
}

/**
 * Merges several layers of one server's entry (for example plugin, bot and request config) in
 * order: later layers win for every key, except the approval declarations, where the strongest
 * declaration of any layer wins (so an explicit `prompt` survives any order). Approval values are
 * validated; the default is not filled in (see {@link withManagedApproval}).
 *
 * @example
 * ```ts
 * mergeMcpServerEntries([{ command: 'a', default_tools_approval_mode: 'prompt' }, { command: 'b', default_tools_approval_mode: 'approve' }]);
 * // Right({ command: 'b', default_tools_approval_mode: 'prompt' })
 * ```
 */
export function mergeMcpServerEntries(layers: ReadonlyArray<unknown>, path: ReadonlyArray<string> = []): E.Either<McpConfigError, JsonRecord> {
  const declarations: ApprovalDeclarations[] = [];
  let merged: JsonRecord = {};
  for (const [i, layer] of layers.entries()) {
    const layerPath = layers.length === 1 ? path : [...path, String(i)];
    const declared = approvalDeclarations(layer, layerPath);
    if (E.isLeft(declared)) return declared;
    declarations.push(declared.right);
    merged = deepMerge(merged, layer as JsonRecord);
  }
  return E.right(withDeclarations(merged, strongestDeclarations(declarations)));
}

/**
 * One Wework-managed server entry: `default_tools_approval_mode` becomes `"approve"` unless a
 * stricter mode (`prompt`, `writes`) is declared; per-tool declarations and every other key stay.
 *
 * @example
 * ```ts
 * withManagedApproval({ command: 'node', args: ['server.js'] });
 * // Right({ command: 'node', args: ['server.js'], default_tools_approval_mode: 'approve' })
 * withManagedApproval({ command: 'node', default_tools_approval_mode: 'prompt' });
 * // Right({ command: 'node', default_tools_approval_mode: 'prompt' })
 * ```
 */
export function withManagedApproval(entry: unknown, path: ReadonlyArray<string> = []): E.Either<McpConfigError, JsonRecord> {
  const declared = approvalDeclarations(entry, path);
  if (E.isLeft(declared)) return declared;
  const mode = strongerApprovalMode(declared.right.server, MANAGED_TOOLS_APPROVAL_MODE) ?? MANAGED_TOOLS_APPROVAL_MODE;
  return E.right(withKey(entry as JsonRecord, SERVER_APPROVAL_KEY, mode));
}

/**
 * The `[mcp_servers]` table for Wework-managed servers from several layers (each an `mcp_servers`
 * table: name → entry), for example `[pluginDeclared, botLevel, requestLevel]`: entries of the same
 * name are merged with {@link mergeMcpServerEntries}, then given {@link withManagedApproval}.
 * Error paths start with the layer index.
 *
 * @example
 * ```ts
 * managedMcpServers([{ forms: { command: 'node', default_tools_approval_mode: 'prompt' } }, { forms: { env: { A: '1' } }, search: { url: 'http://127.0.0.1:9/mcp' } }]);
 * // Right({ forms: { command: 'node', default_tools_approval_mode: 'prompt', env: { A: '1' } },
 * //         search: { url: 'http://127.0.0.1:9/mcp', default_tools_approval_mode: 'approve' } })
 * ```
 */
export function managedMcpServers(layers: ReadonlyArray<unknown>): E.Either<McpConfigError, Record<string, JsonRecord>> {
  type Layered = { readonly entry: unknown; readonly path: ReadonlyArray<string> };
  const byName = new Map<string, Layered[]>();
  for (const [i, layer] of layers.entries()) {
    if (!isRecord(layer)) return E.left(notATable([String(i)], layer));
    for (const [name, entry] of Object.entries(layer)) {
      const path = [String(i), name];
      const valid = approvalDeclarations(entry, path);
      if (E.isLeft(valid)) return valid;
      byName.set(name, [...(byName.get(name) ?? []), { entry, path }]);
    }
  }
  let servers: Record<string, JsonRecord> = {};
  for (const [name, entries] of byName) {
    const merged = mergeMcpServerEntries(
      entries.map(({ entry }) => entry),
      [name],
    );
    if (E.isLeft(merged)) return merged;
    const managed = withManagedApproval(merged.right, [name]);
    if (E.isLeft(managed)) return managed;
    servers = withKey(servers, name, managed.right);
  }
  return E.right(servers);
}
