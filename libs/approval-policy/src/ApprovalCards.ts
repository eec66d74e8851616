/**
 * Cards for Codex's execution approvals: `item/commandExecution/requestApproval`,
 * `item/fileChange/requestApproval` and `item/permissions/requestApproval` become one
 * `request_user_input` question (id `decision`) whose options are the decisions a person may take,
 * plus the metadata that maps the chosen option back to the exact protocol value
 * (`decisions[i]` belongs to `questions[0].options[i]`).
 *
 * A request that carries an enum literal or a union variant of a newer Codex anywhere in its
 * params (an unknown approval kind, permission or path kind) gets no card: it is refused
 * ({@link UnknownApprovalRequest}), never accepted on a guess.
 *
 * Command and file-change cards show only the decisions the request advertises, in the order of
 * `availableDecisions` (see `ApprovalDecisions` for what is left out and for the conservative set
 * used when nothing is advertised). Permission cards have four fixed choices: allow for this turn,
 * allow for this session, review each command this turn, deny.
 *
 * Every function here is pure: JSON in, a card or a `_tag`ged error out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import {
  codecs,
  invalidParams,
  type CommandExecutionApprovalDecisionStrict,
  type CommandExecutionRequestApprovalParams,
  type FileChangeApprovalDecision,
  type GrantedPermissionProfile,
  type InvalidParams,
  type RequestPermissionProfile,
  type ToolRequestUserInputQuestion,
  unknownParts,
} from '@wework/codex-protocol';
import {
  CONSERVATIVE_DECISIONS,
  commandDecisionOption,
  fileChangeDecisionOption,
  offeredCommandDecisions,
  uniqueLabels,
  type CommandSubject,
  type DecisionOption,
  type IgnoredDecision,
  type ProposedAmendments,
} from './ApprovalDecisions.js';
import { jsonEqual, own, withKey, withoutKey } from '@wework/codex-protocol';
import { isRecord } from '@wework/decode-issues';
import { describePermissions, grantRequested } from './internal/PermissionSummary.js';
import { describePersistedValue } from './PermissionMode.js';

/** The three approval requests, by JSON-RPC method. */
export const APPROVAL_METHODS: readonly ['item/commandExecution/requestApproval', 'item/fileChange/requestApproval', 'item/permissions/requestApproval'] = Object.freeze([
  'item/commandExecution/requestApproval',
  'item/fileChange/requestApproval',
  'item/permissions/requestApproval',
] as const);

/** One of the approval request methods. */
export type ApprovalMethod = (typeof APPROVAL_METHODS)[number];

/** Whether `method` is one of {@link APPROVAL_METHODS}. */
export function isApprovalMethod(method: unknown): method is ApprovalMethod {
  return (APPROVAL_METHODS as ReadonlyArray<unknown>).includes(method);
}

/** The id of the single question of every approval card. */
export const DECISION_QUESTION_ID = 'decision';

/** The single question: the protocol's `ToolRequestUserInputQuestion`, read-only, with options. */
export interface DecisionQuestion {
  readonly id: typeof DECISION_QUESTION_ID;
  readonly header: string;
  /** What is asked, in words a person understands (command, folder, reason, host...). */
  readonly question: string;
  readonly isOther: false;
  readonly isSecret: false;
  /** Unique labels, one per decision. */
  readonly options: ReadonlyArray<DecisionOption>;
}

/** Where the request came from. */
export interface ApprovalSource {
  readonly threadId: string;
  readonly turnId: string;
  readonly itemId: string;
  /** The callback id of command approvals that share an item (`null` otherwise). */
  readonly approvalId: string | null;
}

interface CardCommon {
  readonly source: ApprovalSource;
  readonly questions: readonly [DecisionQuestion];
  /** Always true: one question, one click. */
  readonly submitOnSelect: true;
}

/** A command (or terminal input, or network access) approval. */
export interface CommandApprovalCard extends CardCommon {
  readonly _tag: 'CommandApprovalCard';
  readonly method: 'item/commandExecution/requestApproval';
  /** `decisions[i]` is the exact protocol value of `questions[0].options[i]`. */
  readonly decisions: ReadonlyArray<CommandExecutionApprovalDecisionStrict>;
  /** True when the request advertised nothing and the conservative set is offered. */
  readonly conservative: boolean;
  /** Advertised entries that are not offered, and why (for the log). */
  readonly ignored: ReadonlyArray<IgnoredDecision>;
  /** The request's own proposals: a structured decision must carry one of them. */
  readonly proposed: ProposedAmendments;
}

/** A file-change (patch) approval. */
export interface FileChangeApprovalCard extends CardCommon {
  readonly _tag: 'FileChangeApprovalCard';
  readonly method: 'item/fileChange/requestApproval';
  readonly decisions: ReadonlyArray<FileChangeApprovalDecision>;
  readonly conservative: boolean;
  readonly ignored: ReadonlyArray<IgnoredDecision>;
}

/** What a person may answer a permission request. */
export type PermissionsChoice = 'allowForTurn' | 'allowForSession' | 'reviewEachCommand' | 'deny';

/** The choices of a permission card, in display order. */
export const PERMISSIONS_CHOICES: ReadonlyArray<PermissionsChoice> = Object.freeze(['allowForTurn', 'allowForSession', 'reviewEachCommand', 'deny'] as const);

/** A request for more permissions (`request_permissions`). */
export interface PermissionsApprovalCard extends CardCommon {
  readonly _tag: 'PermissionsApprovalCard';
  readonly method: 'item/permissions/requestApproval';
  readonly decisions: ReadonlyArray<PermissionsChoice>;
  /** Exactly what was requested. */
  readonly requested: RequestPermissionProfile;
  /** What an allow grants: the requested permissions as a `GrantedPermissionProfile`. */
  readonly grant: GrantedPermissionProfile;
}

/** A card for an approval request. */
export type ApprovalRequestCard = CommandApprovalCard | FileChangeApprovalCard | PermissionsApprovalCard;

/** Why no card can be shown (the request is answered with the safe refusal). */
export type ApprovalCardError =
  | { readonly _tag: 'UnknownApprovalMethod'; readonly method: string; readonly message: string }
  | (InvalidParams & { readonly approvalMethod: ApprovalMethod })
  | { readonly _tag: 'NoUsableDecisions'; readonly method: ApprovalMethod; readonly ignored: ReadonlyArray<IgnoredDecision>; readonly message: string }
  | UnknownApprovalRequest;

/**
 * The request carries an enum literal or a union variant of a newer Codex (an unknown approval
 * kind, an unknown kind of permission or path...): what it asks to allow cannot be shown exactly,
 * so it is refused. `parts` say where (kind, path, codec; never the value).
 */
export interface UnknownApprovalRequest {
  readonly _tag: 'UnknownApprovalRequest';
  readonly method: ApprovalMethod;
  readonly parts: ReadonlyArray<{ readonly kind: 'literal' | 'variant'; readonly path: string; readonly codec: string }>;
  readonly message: string;
}

/** The unknown parts of decoded params, as an {@link UnknownApprovalRequest}, or `null` when there are none. */
function unknownRequest(method: ApprovalMethod, codec: Parameters<typeof unknownParts>[0], params: unknown): UnknownApprovalRequest | null {
  const parts = unknownParts(codec, params).map(({ kind, path, codec: name }) => ({ kind, path: path.replace(/^\$/, 'params'), codec: name }));
  if (parts.length === 0) return null;
  const where = parts.map((p) => `${p.path} (${p.codec})`).join(', ');
  return { _tag: 'UnknownApprovalRequest', method, parts, message: `${method} carries what this version does not know at ${where}; refused` };
}

const line = (label: string, value: string | null | undefined): string => (value === null || value === undefined || value === '' ? '' : `\n${label}: ${value}`);

const question = (header: string, text: string, options: ReadonlyArray<DecisionOption>): readonly [DecisionQuestion] => [
  { id: DECISION_QUESTION_ID, header, question: text, isOther: false, isSecret: false, options: uniqueLabels(options) },
];

const sourceOf = (p: { threadId: string; turnId: string; itemId: string; approvalId?: string | null }): ApprovalSource => ({
  threadId: p.threadId,
  turnId: p.turnId,
  itemId: p.itemId,
  approvalId: p.approvalId ?? null,
});

const invalid = (method: ApprovalMethod, errors: Parameters<typeof invalidParams>[1]): ApprovalCardError => ({ ...invalidParams(method, errors), approvalMethod: method });
const invalidMessage = (method: ApprovalMethod, message: string): ApprovalCardError => ({
  _tag: 'InvalidParams',
  method,
  approvalMethod: method,
  issues: [],
  message: `Invalid params of ${method}: ${message}`,
});

function commandText(p: CommandExecutionRequestApprovalParams, subject: CommandSubject): { header: string; text: string } {
  const extra = p.additionalPermissions ? describePermissions(p.additionalPermissions) : null;
  const details = `${line('Command', p.command)}${line('In', p.cwd)}${line('It also asks for', extra)}${line('Reason', p.reason)}`;
  if (typeof subject === 'object') {
    return { header: 'Network access', text: `Codex wants network access to ${subject.network.host} (${subject.network.protocol}).${details}` };
  }
  if (subject === 'stdin') return { header: 'Terminal input', text: `Codex wants to send input to a running command.${details}` };
  return { header: 'Run a command', text: `Codex wants to run a command${p.command ? `: ${p.command}` : '.'}${line('In', p.cwd)}${line('It also asks for', extra)}${line('Reason', p.reason)}` };
}

function commandCard(params: Readonly<Record<string, unknown>>): E.Either<ApprovalCardError, CommandApprovalCard> {
  const method = 'item/commandExecution/requestApproval';
  // `kind` defaults to `command` for older servers (protocol doc); `availableDecisions` is read entry by entry below.
  const withKind = own(params, 'kind') === undefined ? withKey(params, 'kind', 'command') : params;
  const decoded = codecs.CommandExecutionRequestApprovalParams.decode(withoutKey(withKind, 'availableDecisions'));
  if (E.isLeft(decoded)) return E.left(invalid(method, decoded.left));
  const p = decoded.right;
  const unknown = unknownRequest(method, codecs.CommandExecutionRequestApprovalParams, p);
  if (unknown !== null) return E.left(unknown);
  const proposed: ProposedAmendments = { execpolicy: p.proposedExecpolicyAmendment ?? null, network: p.proposedNetworkPolicyAmendments ?? null };
  const offered = offeredCommandDecisions(own(params, 'availableDecisions'), proposed);
  if (E.isLeft(offered)) return E.left(invalidMessage(method, offered.left));
  const { decisions, ignored, conservative } = offered.right;
  if (decisions.length === 0) {
    return E.left({ _tag: 'NoUsableDecisions', method, ignored, message: `${method} advertised no decision Wework can offer (${ignored.length} ignored)` });
  }
  const context = p.networkApprovalContext;
  const subject: CommandSubject = context ? { network: { host: context.host, protocol: context.protocol } } : p.kind === 'writeStdin' ? 'stdin' : 'command';
  const { header, text } = commandText(p, subject);
  return E.right({
    _tag: 'CommandApprovalCard',
    method,
    source: sourceOf(p),
    questions: question(header, text, decisions.map((d) => commandDecisionOption(d, subject))),
    submitOnSelect: true,
    decisions,
    conservative,
    ignored,
    proposed,
  });
}

function fileChangeCard(params: Readonly<Record<string, unknown>>): E.Either<ApprovalCardError, FileChangeApprovalCard> {
  const method = 'item/fileChange/requestApproval';
  const decoded = codecs.FileChangeRequestApprovalParams.decode(withoutKey(params, 'availableDecisions'));
  if (E.isLeft(decoded)) return E.left(invalid(method, decoded.left));
  const p = decoded.right;
  const unknown = unknownRequest(method, codecs.FileChangeRequestApprovalParams, p);
  if (unknown !== null) return E.left(unknown);
  // Codex 0.171.0 does not advertise file-change decisions; a future server that does is honoured entry by entry.
  const available = own(params, 'availableDecisions');
  let decisions: ReadonlyArray<FileChangeApprovalDecision> = CONSERVATIVE_DECISIONS;
  const ignored: IgnoredDecision[] = [];
  const conservative = available === undefined || available === null;
  if (!conservative) {
    if (!Array.isArray(available)) return E.left(invalidMessage(method, `availableDecisions is ${describePersistedValue(available)}, not an array`));
    const offered: FileChangeApprovalDecision[] = [];
    (available as ReadonlyArray<unknown>).forEach((entry, index) => {
      if (!codecs.FileChangeApprovalDecision.is(entry)) ignored.push({ _tag: 'UnknownDecision', index, description: describePersistedValue(entry) });
      else if (offered.some((d) => jsonEqual(d, entry))) ignored.push({ _tag: 'DuplicateDecision', index });
      else offered.push(entry);
    });
    decisions = offered;
    if (decisions.length === 0) return E.left({ _tag: 'NoUsableDecisions', method, ignored, message: `${method} advertised no decision Wework can offer (${ignored.length} ignored)` });
  }
  const root = p.grantRoot ? `\nIt asks to allow writes under ${p.grantRoot} for the rest of the session.` : '';
  return E.right({
    _tag: 'FileChangeApprovalCard',
    method,
    source: sourceOf(p),
    questions: question('Change files', `Codex wants to change files.${line('Reason', p.reason)}${root}`, decisions.map(fileChangeDecisionOption)),
    submitOnSelect: true,
    decisions,
    conservative,
    ignored,
  });
}

const PERMISSION_OPTIONS: Readonly<Record<PermissionsChoice, DecisionOption>> = {
  allowForTurn: { label: 'Allow for this turn', description: 'Grant exactly these permissions until this turn ends.' },
  allowForSession: { label: 'Allow for this session', description: 'Grant exactly these permissions until the session ends.' },
  reviewEachCommand: { label: 'Review each command this turn', description: 'Grant them for this turn, but every following command of this turn is reviewed before it runs.' },
  deny: { label: 'Deny', description: 'Grant nothing more; the task goes on with its current permissions.' },
};

function permissionsCard(params: Readonly<Record<string, unknown>>): E.Either<ApprovalCardError, PermissionsApprovalCard> {
  const method = 'item/permissions/requestApproval';
  const decoded = codecs.PermissionsRequestApprovalParams.decode(params);
  if (E.isLeft(decoded)) return E.left(invalid(method, decoded.left));
  const p = decoded.right;
  const unknown = unknownRequest(method, codecs.PermissionsRequestApprovalParams, p);
  if (unknown !== null) return E.left(unknown);
  const grant = grantRequested(p.permissions);
  // Unreachable once nothing is unknown; kept so that only a grant of strict protocol values is ever sent.
  if (grant === null) return E.left({ _tag: 'UnknownApprovalRequest', method, parts: [], message: `${method} asks for permissions this version cannot grant; refused` });
  const summary = describePermissions(p.permissions) ?? 'no specific permission';
  return E.right({
    _tag: 'PermissionsApprovalCard',
    method,
    source: sourceOf(p),
    questions: question('More permissions', `Codex asks for more permissions: ${summary}.${line('In', p.cwd)}${line('Reason', p.reason)}`, PERMISSIONS_CHOICES.map((c) => PERMISSION_OPTIONS[c])),
    submitOnSelect: true,
    decisions: PERMISSIONS_CHOICES,
    requested: p.permissions,
    grant,
  });
}

/**
 * The card for an approval request (`method` and its params, any JSON), or why there is none:
 * an unknown method, params that do not decode, or no advertised decision that can be offered.
 *
 * @example
 * ```ts
 * const card = approvalCard('item/commandExecution/requestApproval', {
 *   kind: 'command', threadId: 't', turnId: 'u', itemId: 'i', startedAtMs: 0, environmentId: null,
 *   command: 'touch x', cwd: '/repo', reason: 'create the file',
 *   availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } }, 'cancel'],
 * });
 * // Right({ _tag: 'CommandApprovalCard', questions: [{ id: 'decision', options: [
 * //   { label: 'Run once', ... }, { label: 'Always allow commands starting with "touch"', ... }, { label: 'Stop the task', ... }] }],
 * //   decisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch'] } }, 'cancel'], ... })
 * ```
 */
export function approvalCard(method: unknown, params: unknown): E.Either<ApprovalCardError, ApprovalRequestCard> {
  if (!isApprovalMethod(method)) {
    const shown = describePersistedValue(method);
    return E.left({ _tag: 'UnknownApprovalMethod', method: typeof method === 'string' ? method : shown, message: `${shown} is not an approval request` });
  }
  if (!isRecord(params)) return E.left(invalidMessage(method, `params are ${describePersistedValue(params)}, not an object`));
  switch (method) {
    case 'item/commandExecution/requestApproval':
      return commandCard(params);
    case 'item/fileChange/requestApproval':
      return fileChangeCard(params);
    case 'item/permissions/requestApproval':
      return permissionsCard(params);
  }
}

/**
 * The card's questions as plain, mutable protocol `ToolRequestUserInputQuestion`s, e.g. to send a
 * `request_user_input` block to a host UI.
 *
 * @example
 * ```ts
 * if (card._tag === 'Right') render(approvalQuestions(card.right)); // [{ id: 'decision', header, question, isOther: false, isSecret: false, options }]
 * ```
 */
export function approvalQuestions(card: ApprovalRequestCard): Array<ToolRequestUserInputQuestion> {
  const questions: unknown = isRecord(card) ? own(card, 'questions') : undefined;
  if (!Array.isArray(questions)) return [];
  return (questions as ReadonlyArray<DecisionQuestion>).filter(isRecord).map((q) => ({
    id: String(q.id),
    header: String(q.header),
    question: String(q.question),
    isOther: false,
    isSecret: false,
    options: Array.isArray(q.options) ? q.options.filter(isRecord).map((o) => ({ label: String(o.label), description: String(o.description) })) : null,
  }));
}
