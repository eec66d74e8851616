/**
 * The Codex configuration the executor runs with, as plain data: the model provider and Wework's managed
 * part from `@wework/approval-policy` (managed MCP servers approve normal tool calls unless a plugin
 * declares `prompt`; tool approvals are never wrapped as MCP elicitation forms).
 *
 * Every function here is pure.
 */
import * as E from 'fp-ts/lib/Either.js';
import { managedConfigFragment, permissionParams, type McpConfigError, type PermissionMode, type PermissionParams } from '@wework/approval-policy';
import { scriptedModelCodexConfig } from '@wework/scripted-model';

/** An MCP server the executor manages: its command line, and anything the plugin declares (e.g. `default_tools_approval_mode`). */
export interface ManagedMcpServer {
  readonly name: string;
  readonly command: string;
  readonly args: ReadonlyArray<string>;
  readonly declared?: Readonly<Record<string, unknown>>;
}

/** The `config.toml` content for a local run against the scripted model, with Wework's managed servers. */
export function scriptedExecutorConfig(modelUrl: string, servers: ReadonlyArray<ManagedMcpServer>): E.Either<McpConfigError, Readonly<Record<string, unknown>>> {
  const model = scriptedModelCodexConfig({ baseUrl: modelUrl, name: 'Embedded demo model' });
  const layer = Object.fromEntries(servers.map((server) => [server.name, { ...server.declared, command: server.command, args: server.args }]));
  return E.map((managed: Readonly<Record<string, unknown>>) => ({
    ...model,
    features: { ...model.features, ...(managed['features'] as object) },
    mcp_servers: managed['mcp_servers'],
  }))(managedConfigFragment([layer]));
}

/** Thread params of a permission mode (default Full access: `:danger-full-access`, granular policy keeping plugin forms). */
export function threadParamsFor(mode: PermissionMode = 'full-access'): PermissionParams {
  return permissionParams(mode);
}
