/**
 * Writing and refreshing Wework's part of a Codex `config.toml`: the built-in persistent MCP
 * servers (`wegent_apps`, `wework_browser`) with the managed approval default, and
 * `[features] tool_call_mcp_elicitation = false`, so tool-call approvals are never wrapped as
 * plugin business forms.
 *
 * A refresh (at connector configure or app sync) is idempotent, keeps every key it does not own
 * (other servers, other features, extra keys inside a built-in entry) and never weakens an
 * explicit `prompt`. It returns the refreshed config, the `config/batchWrite` edits that make the
 * change on disk, and the plain-object TOML fragment of Wework's part.
 *
 * Every function here is pure: JSON in, JSON or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { ConfigEdit } from '@wework/codex-protocol';
import { configEdits } from '@wework/config-toml';
import { isRecord } from '@wework/decode-issues';
import { own, withKey, type JsonRecord } from '@wework/codex-protocol';
import { approvalDeclarations, managedMcpServers, mergeMcpServerEntries, notATable, withManagedApproval, type McpConfigError, type McpServerEntry } from './McpServerApproval.js';

/** The `[features]` Wework sets: tool-call approvals are not wrapped as MCP elicitation forms. */
export const weworkFeatures: { readonly tool_call_mcp_elicitation: false } = Object.freeze({ tool_call_mcp_elicitation: false });

/** A server Wework owns in the user's config, with the keys Wework writes (command, args, env, url...). */
export interface BuiltInServer {
  readonly name: string;
  readonly entry: McpServerEntry;
}

/** The outcome of {@link refreshBuiltInServers}. */
export interface ConfigRefresh {
  /** The whole config after the refresh. */
  readonly config: JsonRecord;
  /** `config/batchWrite` edits turning the old config into `config`; empty when nothing changes. */
  readonly edits: ReadonlyArray<ConfigEdit>;
  /** Wework's part as a TOML-ready plain object: `{ features: {...}, mcp_servers: { <built-in>: {...} } }`. */
  readonly fragment: JsonRecord;
}

function table(config: JsonRecord, key: string): E.Either<McpConfigError, JsonRecord> {
  const value = own(config, key);
  if (value === undefined) return E.right({});
  return isRecord(value) ? E.right(value as JsonRecord) : E.left(notATable([key], value));
}

/**
 * Refreshes the built-in servers of an existing config (a parsed `config.toml` or `config/read`'s
 * `config`). For each server: the keys Wework writes are set, every other key of the existing entry
 * stays, the approval mode is `approve` unless the existing entry (or Wework's) declares a stricter
 * one. `features.tool_call_mcp_elicitation` becomes `false`. Anything else is left as it is.
 *
 * @example
 * ```ts
 * const refreshed = refreshBuiltInServers(
 *   { model: 'gpt-5.5', mcp_servers: { wegent_apps: { command: 'old', default_tools_approval_mode: 'prompt', startup_timeout_sec: 20 } } },
 *   [{ name: 'wegent_apps', entry: { command: 'wegent-apps-mcp', args: ['--stdio'] } }],
 * );
 * // Right({ config: { model: 'gpt-5.5', mcp_servers: { wegent_apps: { command: 'wegent-apps-mcp', args: ['--stdio'],
 * //   default_tools_approval_mode: 'prompt', startup_timeout_sec: 20 } }, features: { tool_call_mcp_elicitation: false } },
 * //   edits: [ { keyPath: 'mcp_servers.wegent_apps.command', value: 'wegent-apps-mcp', mergeStrategy: 'replace' }, ... ],
 * //   fragment: { features: { tool_call_mcp_elicitation: false }, mcp_servers: { wegent_apps: { ... } } } })
 * ```
 */
export function refreshBuiltInServers(config: unknown, servers: ReadonlyArray<BuiltInServer>): E.Either<McpConfigError, ConfigRefresh> {
  if (!isRecord(config)) return E.left(notATable([], config));
  const before = config as JsonRecord;
  const features = table(before, 'features');
  if (E.isLeft(features)) return features;
  const mcpServers = table(before, 'mcp_servers');
  if (E.isLeft(mcpServers)) return mcpServers;

  let refreshedServers = mcpServers.right;
  let fragmentServers: JsonRecord = {};
  for (const { name, entry } of servers) {
    const existing = own(refreshedServers, name);
    const path = ['mcp_servers', name];
    for (const layer of existing === undefined ? [entry] : [existing, entry]) {
      const valid = approvalDeclarations(layer, path);
      if (E.isLeft(valid)) return valid;
    }
    const merged = mergeMcpServerEntries(existing === undefined ? [entry] : [existing, entry], path);
    if (E.isLeft(merged)) return merged;
    const managed = withManagedApproval(merged.right, path);
    if (E.isLeft(managed)) return managed;
    refreshedServers = withKey(refreshedServers, name, managed.right);
    fragmentServers = withKey(fragmentServers, name, managed.right);
  }

  let after: JsonRecord = withKey(before, 'features', withKey(features.right, 'tool_call_mcp_elicitation', false));
  if (servers.length > 0 || own(before, 'mcp_servers') !== undefined) after = withKey(after, 'mcp_servers', refreshedServers);
  return E.right({
    config: after,
    edits: configEdits(before, after),
    fragment: { features: weworkFeatures, mcp_servers: fragmentServers },
  });
}

/**
 * The TOML-ready fragment for Wework-managed servers from several layers (plugin, bot and request
 * config, in that order; see `managedMcpServers`) plus Wework's `[features]`.
 *
 * @example
 * ```ts
 * managedConfigFragment([{ forms: { command: 'node', args: ['forms.js'] } }]);
 * // Right({ features: { tool_call_mcp_elicitation: false },
 * //         mcp_servers: { forms: { command: 'node', args: ['forms.js'], default_tools_approval_mode: 'approve' } } })
 * ```
 */
export function managedConfigFragment(layers: ReadonlyArray<unknown>): E.Either<McpConfigError, JsonRecord> {
  const servers = managedMcpServers(layers);
  return E.isLeft(servers) ? servers : E.right({ features: weworkFeatures, mcp_servers: servers.right });
}
