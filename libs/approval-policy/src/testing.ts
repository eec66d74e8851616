/**
 * `@wework/approval-policy/testing`: fast-check arbitraries of the inputs this package reads, so
 * hosts can property-test their own use of it. Needs `fast-check` (an optional peer dependency).
 *
 * Every value here is pure: arbitraries describe values; fast-check supplies the randomness.
 */
import * as fc from 'fast-check';
import { codecs, type AskForApprovalStrict, type FileChangeRequestApprovalParams, type JsonValue, type PermissionsRequestApprovalParams } from '@wework/codex-protocol';
import {
  arbitraryOf,
  commandExecutionRequestApprovalParamsArbitrary,
  fileChangeRequestApprovalParamsArbitrary,
  permissionsRequestApprovalParamsArbitrary,
} from '@wework/codex-protocol/testing';
import type { ApprovalMethod } from './ApprovalCards.js';
import type { JsonRecord } from '@wework/codex-protocol';
import { ToolsApprovalMode } from './McpServerApproval.js';
import { PERMISSION_MODES, type PermissionMode } from './PermissionMode.js';

/** Any permission mode. */
export const permissionModeArbitrary: fc.Arbitrary<PermissionMode> = fc.constantFrom(...PERMISSION_MODES);

/** Any Codex tool approval mode. */
export const toolsApprovalModeArbitrary: fc.Arbitrary<ToolsApprovalMode> = fc.constantFrom(...(Object.keys(ToolsApprovalMode.keys) as ToolsApprovalMode[]));

/** Any `AskForApproval` this version knows (the generated protocol type, as we send it). */
export const approvalPolicyArbitrary: fc.Arbitrary<AskForApprovalStrict> = arbitraryOf(codecs.AskForApprovalStrict);

const key: fc.Arbitrary<string> = fc.oneof(fc.constantFrom('forms', 'search', 'wegent_apps', 'wework_browser', 'dotted.name', 'deploy'), fc.string({ maxLength: 6 }));
const scalar: fc.Arbitrary<JsonValue> = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
const unrelated: fc.Arbitrary<Record<string, JsonValue>> = fc.dictionary(
  fc.string({ maxLength: 8 }).filter((k) => k !== 'default_tools_approval_mode' && k !== 'tools' && k !== 'approval_mode'),
  fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 2 })),
  { maxKeys: 4 },
);

/** An `[mcp_servers.<name>]` entry: unrelated keys, and maybe a server-level and per-tool approval modes. */
export const mcpServerEntryArbitrary: fc.Arbitrary<JsonRecord> = fc
  .record(
    {
      rest: unrelated,
      mode: fc.option(toolsApprovalModeArbitrary, { nil: undefined }),
      tools: fc.option(fc.dictionary(key, fc.record({ mode: fc.option(toolsApprovalModeArbitrary, { nil: undefined }), extra: unrelated }), { maxKeys: 3 }), { nil: undefined }),
    },
    { noNullPrototype: true },
  )
  .map(({ rest, mode, tools }) => {
    const entry: Record<string, JsonValue> = { ...rest };
    if (mode !== undefined) entry['default_tools_approval_mode'] = mode;
    if (tools !== undefined) {
      const table: Record<string, JsonValue> = {};
      for (const [tool, { mode: toolMode, extra }] of Object.entries(tools)) table[tool] = toolMode === undefined ? { ...extra } : { ...extra, approval_mode: toolMode };
      entry['tools'] = table;
    }
    return entry;
  });

/** An `mcp_servers` table: name → entry. */
export const mcpServersArbitrary: fc.Arbitrary<Record<string, JsonRecord>> = fc.dictionary(key, mcpServerEntryArbitrary, { maxKeys: 4 });

/** A parsed `config.toml`: unrelated keys, maybe `[features]`, maybe `[mcp_servers]`. */
export const codexConfigArbitrary: fc.Arbitrary<JsonRecord> = fc
  .record({
    rest: unrelated,
    features: fc.option(fc.dictionary(fc.string({ maxLength: 30 }), fc.boolean(), { maxKeys: 3 }), { nil: undefined }),
    servers: fc.option(mcpServersArbitrary, { nil: undefined }),
  })
  .map(({ rest, features, servers }) => {
    const config: Record<string, JsonValue> = { ...rest };
    delete config['features'];
    delete config['mcp_servers'];
    if (features !== undefined) config['features'] = features;
    if (servers !== undefined) config['mcp_servers'] = servers;
    return config;
  });

const amendmentWord = fc.oneof(fc.constantFrom('git', 'status', 'touch', 'npm', 'run', 'a b', "it's", ''), fc.string({ maxLength: 6 }));
const execAmendment = fc.array(amendmentWord, { minLength: 0, maxLength: 3 });
const networkAmendment = fc.record({ host: fc.oneof(fc.constantFrom('example.com', 'registry.npmjs.org', '', 'a b'), fc.string({ maxLength: 8 })), action: fc.constantFrom('allow' as const, 'deny' as const) });

/**
 * Any entry of a command request's `availableDecisions`: the plain decisions, structured ones with
 * arbitrary (maybe empty) amendments, and entries that are no protocol decision at all.
 */
export const availableDecisionEntryArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom<unknown>('accept', 'acceptForSession', 'decline', 'cancel'), weight: 4 },
  { arbitrary: execAmendment.map((execpolicy_amendment) => ({ acceptWithExecpolicyAmendment: { execpolicy_amendment } })), weight: 2 },
  { arbitrary: networkAmendment.map((network_policy_amendment) => ({ applyNetworkPolicyAmendment: { network_policy_amendment } })), weight: 2 },
  { arbitrary: fc.oneof(fc.constantFrom<unknown>('approve', 'Accept', null, 3, {}, { acceptWithExecpolicyAmendment: {} }), fc.jsonValue()), weight: 1 },
);

/**
 * `item/commandExecution/requestApproval` params as a server may send them: valid protocol params
 * whose `availableDecisions` is absent, `null`, or any list of entries (duplicates and unknown
 * entries included), maybe with a network context and proposed amendments.
 */
export const commandApprovalParamsArbitrary: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    base: commandExecutionRequestApprovalParamsArbitrary,
    available: fc.option(fc.array(availableDecisionEntryArbitrary, { maxLength: 7 }), { nil: undefined }),
    nullAvailable: fc.boolean(),
    proposed: fc.option(execAmendment, { nil: undefined }),
    network: fc.option(fc.array(networkAmendment, { maxLength: 2 }), { nil: undefined }),
  })
  .map(({ base, available, nullAvailable, proposed, network }) => {
    const params: Record<string, unknown> = { ...base };
    delete params['availableDecisions'];
    if (available !== undefined) params['availableDecisions'] = available;
    else if (nullAvailable) params['availableDecisions'] = null;
    if (proposed !== undefined) params['proposedExecpolicyAmendment'] = proposed;
    if (network !== undefined) params['proposedNetworkPolicyAmendments'] = network;
    return params;
  });

/** `item/fileChange/requestApproval` params (valid; Codex 0.171.0 sends no `availableDecisions`). */
export const fileChangeApprovalParamsArbitrary: fc.Arbitrary<FileChangeRequestApprovalParams> = fileChangeRequestApprovalParamsArbitrary;

/** `item/permissions/requestApproval` params (valid). */
export const permissionsApprovalParamsArbitrary: fc.Arbitrary<PermissionsRequestApprovalParams> = permissionsRequestApprovalParamsArbitrary;

/** One of the three approval requests: its method and params. */
export const approvalRequestArbitrary: fc.Arbitrary<{ readonly method: ApprovalMethod; readonly params: unknown }> = fc.oneof(
  commandApprovalParamsArbitrary.map((params) => ({ method: 'item/commandExecution/requestApproval' as const, params })),
  fileChangeApprovalParamsArbitrary.map((params) => ({ method: 'item/fileChange/requestApproval' as const, params })),
  permissionsApprovalParamsArbitrary.map((params) => ({ method: 'item/permissions/requestApproval' as const, params })),
);

/**
 * A persisted task record: with or without `modelSelection.options.permissionMode`, a known mode,
 * or a corrupt value at any level.
 */
export const persistedTaskArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ title: fc.string({ maxLength: 5 }) }),
  fc.record({ modelSelection: fc.record({ model: fc.constantFrom('gpt-5.5') }) }),
  fc.record({ modelSelection: fc.record({ options: fc.record({ permissionMode: fc.oneof(permissionModeArbitrary, fc.jsonValue()) }) }) }),
  fc.record({ modelSelection: fc.record({ options: fc.jsonValue() }) }),
  fc.record({ modelSelection: fc.jsonValue() }),
  fc.jsonValue(),
);
