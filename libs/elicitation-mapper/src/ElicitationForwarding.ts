/**
 * The approval policy Wework runs Codex with when execution approvals are off: the granular policy
 * that keeps every execution approval disabled and forwards MCP elicitations (plugin business forms)
 * to the client, and how any policy treats plugin forms.
 *
 * Every value here is plain data and every function is pure.
 */
import type { AskForApproval } from '@wework/codex-protocol';

/** The granular member of Codex's `AskForApproval`. */
export type GranularApprovalPolicy = Extract<AskForApproval, { readonly granular: unknown }>;

/**
 * Wework's granular approval policy: `sandbox_approval`, `rules`, `skill_approval` and
 * `request_permissions` off, `mcp_elicitations` on. Used for Full access instead of `"never"`,
 * which would make Codex decline every plugin form before it reaches the client.
 *
 * @example
 * ```ts
 * import { weworkGranularApprovalPolicy } from '@wework/elicitation-mapper';
 * const params = { cwd: '/repo', permissions: ':danger-full-access', approvalPolicy: weworkGranularApprovalPolicy };
 * ```
 */
export const weworkGranularApprovalPolicy: GranularApprovalPolicy = Object.freeze({
  granular: Object.freeze({ sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: true }),
});

/** Whether `policy` is the granular variant. */
export function isGranularPolicy(policy: AskForApproval): policy is GranularApprovalPolicy {
  return typeof policy === 'object' && policy !== null && 'granular' in policy;
}

/**
 * Whether Codex forwards a plugin's elicitation to the client under `policy`, as measured on
 * Codex 0.171.0: `"never"` and granular with `mcp_elicitations: false` decline the form inside
 * Codex (the plugin receives `decline`, no `mcpServer/elicitation/request` is sent); `"on-request"`,
 * `"untrusted"` and granular with `mcp_elicitations: true` forward it.
 *
 * @example
 * ```ts
 * forwardsElicitations('never'); // false
 * forwardsElicitations(weworkGranularApprovalPolicy); // true
 * ```
 */
export function forwardsElicitations(policy: AskForApproval): boolean {
  if (isGranularPolicy(policy)) return policy.granular.mcp_elicitations;
  return policy !== 'never';
}

/** A short readable form of a policy, for messages: `"never"`, `granular{mcp_elicitations: false, ...}`. */
export function describeApprovalPolicy(policy: AskForApproval): string {
  if (!isGranularPolicy(policy)) return JSON.stringify(policy);
  const { granular } = policy;
  return `granular{${Object.entries(granular)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(', ')}}`;
}
