/**
 * The `config.toml` and `thread/start` params a scenario runs with: the scripted model as the model
 * provider, the scenario's plugins as MCP servers, Wework's defaults for plugin forms, and the
 * scenario's own overrides merged on top.
 *
 * Every function here is pure.
 */
import { weworkFeatures } from '@wework/approval-policy';
import { weworkGranularApprovalPolicy } from '@wework/elicitation-mapper';
import { scriptedModelCodexConfig } from '@wework/scripted-model';
import { isRecord } from '@wework/decode-issues';

/** An MCP server entry as Codex reads it from `[mcp_servers.<name>]`. */
export interface McpServerEntry {
  readonly command: string;
  readonly args: ReadonlyArray<string>;
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly default_tools_approval_mode: string;
}

type Json = Readonly<Record<string, unknown>>;

/** Deep-merges plain objects; `override` wins; arrays and scalars are replaced, not merged. */
export function deepMerge(base: Json, override: Json): Json {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key];
    merged[key] = isRecord(current) && isRecord(value) ? deepMerge(current, value) : value;
  }
  return merged;
}

/** Options of {@link harnessCodexConfig}. */
export interface HarnessConfigOptions {
  readonly modelUrl: string;
  readonly modelSlug?: string;
  readonly mcpServers: Readonly<Record<string, McpServerEntry>>;
  readonly overrides?: Json;
}

/**
 * The config.toml content: scripted model provider (fail-fast), `[features] plugins = false` and
 * `tool_call_mcp_elicitation = false`, the MCP servers, then the scenario's overrides.
 */
export function harnessCodexConfig(options: HarnessConfigOptions): Json {
  const model = scriptedModelCodexConfig({ baseUrl: options.modelUrl, ...(options.modelSlug === undefined ? {} : { model: options.modelSlug }) });
  const base: Json = {
    ...model,
    features: { ...model.features, ...weworkFeatures },
    mcp_servers: options.mcpServers,
  };
  return deepMerge(base, options.overrides ?? {});
}

/**
 * The `thread/start` params: the workspace as cwd, Wework's granular approval policy (every execution
 * approval off, plugin forms forwarded), then overrides.
 */
export function harnessThreadParams(cwd: string, overrides: Json = {}): Json {
  return deepMerge({ cwd, approvalPolicy: weworkGranularApprovalPolicy }, overrides);
}
