/**
 * The Codex configuration the executor runs with, as plain data: the model provider, the managed MCP
 * servers (normal tool calls approved without a card, as Wework requires), and the thread params of
 * the Full access permission mode.
 *
 * Every function here is pure.
 */
import { scriptedModelCodexConfig } from '@wework/scripted-model';

/** An MCP server the executor manages. */
export interface ManagedMcpServer {
  readonly name: string;
  readonly command: string;
  readonly args: ReadonlyArray<string>;
}

/**
 * The `config.toml` content for a local run against the scripted model: Wework-managed MCP servers get
 * `default_tools_approval_mode = "approve"`, and tool approvals are never wrapped as MCP elicitation
 * forms (`[features] tool_call_mcp_elicitation = false`).
 */
export function scriptedExecutorConfig(modelUrl: string, servers: ReadonlyArray<ManagedMcpServer>): Readonly<Record<string, unknown>> {
  const model = scriptedModelCodexConfig({ baseUrl: modelUrl, name: 'Embedded demo model' });
  return {
    ...model,
    features: { ...model.features, tool_call_mcp_elicitation: false },
    mcp_servers: Object.fromEntries(
      servers.map((server) => [server.name, { command: server.command, args: server.args, default_tools_approval_mode: 'approve' }]),
    ),
  };
}

/**
 * `thread/start` params of the Full access mode: the `:danger-full-access` profile with a granular
 * approval policy that disables every execution approval but keeps plugin forms (MCP elicitations).
 */
export function fullAccessThreadParams() {
  return {
    permissions: ':danger-full-access',
    approvalPolicy: {
      granular: { sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: true },
    },
  } as const;
}
