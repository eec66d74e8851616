/**
 * The decisions an approval card may offer, and how each one is shown: a label a person
 * understands and a description of what it does.
 *
 * Rules:
 *
 * - A card offers only the decisions the request advertises (`availableDecisions`), in their
 *   order. Entries that are not protocol decisions (a decision of a newer Codex included: a card
 *   offers only what this version knows and can send back), duplicates, structured decisions without a
 *   usable amendment (an empty command prefix, an empty host) and amendments that do not match the
 *   request's own proposal (`proposedExecpolicyAmendment`, `proposedNetworkPolicyAmendments`) are
 *   left out and listed as {@link IgnoredDecision}s.
 * - Without `availableDecisions` (older servers; file-change requests of Codex 0.171.0 never carry
 *   it) the card offers the {@link CONSERVATIVE_DECISIONS}: `accept`, `decline`, `cancel` — no
 *   session-wide and no rule-writing authority.
 * - Whatever the card offers, a host may always answer `decline` or `cancel` (the safe fallbacks).
 *
 * Every function here is pure: values in, values out. Nothing throws.
 */
import * as E from 'fp-ts/lib/Either.js';
import { codecs, type CommandExecutionApprovalDecisionStrict, type ExecPolicyAmendment, type NetworkPolicyAmendment } from '@wework/codex-protocol';
import { jsonEqual } from '@wework/codex-protocol';
import { describePersistedValue } from './PermissionMode.js';

/** The decisions offered when a request does not advertise any: one-time accept, decline, cancel. */
export const CONSERVATIVE_DECISIONS: readonly ['accept', 'decline', 'cancel'] = Object.freeze(['accept', 'decline', 'cancel'] as const);

/** An advertised entry the card does not offer, and why. `index` is its place in `availableDecisions`. */
export type IgnoredDecision =
  | { readonly _tag: 'UnknownDecision'; readonly index: number; readonly description: string }
  | { readonly _tag: 'DuplicateDecision'; readonly index: number }
  | { readonly _tag: 'InvalidAmendment'; readonly index: number; readonly message: string }
  | { readonly _tag: 'MismatchedAmendment'; readonly index: number; readonly message: string };

/** What the request proposes itself; a structured decision must carry exactly one of these. */
export interface ProposedAmendments {
  readonly execpolicy: ExecPolicyAmendment | null;
  readonly network: ReadonlyArray<NetworkPolicyAmendment> | null;
}

/** One option of a card: the protocol's `ToolRequestUserInputOption`. */
export interface DecisionOption {
  readonly label: string;
  readonly description: string;
}

/** What the command asks for: plain command, input to a running terminal, or network access. */
export type CommandSubject = 'command' | 'stdin' | { readonly network: { readonly host: string; readonly protocol: string } };

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A command prefix as shell words (`git status`, `'a b'`): distinct prefixes give distinct text. */
export function formatCommandPrefix(prefix: ReadonlyArray<string>): string {
  return prefix.map((word) => (PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(' ');
}

const HOST = /^[A-Za-z0-9.:[\]*_-]+$/;
const showHost = (host: string): string => (HOST.test(host) ? host : JSON.stringify(host));

/** Why a structured decision cannot be offered, if it cannot. */
export function amendmentProblem(decision: CommandExecutionApprovalDecisionStrict, proposed: ProposedAmendments): { readonly _tag: 'InvalidAmendment' | 'MismatchedAmendment'; readonly message: string } | null {
  if (typeof decision === 'string') return null;
  if ('acceptWithExecpolicyAmendment' in decision) {
    const prefix = decision.acceptWithExecpolicyAmendment.execpolicy_amendment;
    if (prefix.length === 0 || prefix.every((word) => word.trim() === '')) return { _tag: 'InvalidAmendment', message: 'the command rule has an empty prefix' };
    if (proposed.execpolicy !== null && !jsonEqual(prefix, proposed.execpolicy)) {
      return { _tag: 'MismatchedAmendment', message: 'the command rule differs from the request\'s proposedExecpolicyAmendment' };
    }
    return null;
  }
  const amendment = decision.applyNetworkPolicyAmendment.network_policy_amendment;
  if (amendment.host.trim() === '') return { _tag: 'InvalidAmendment', message: 'the network rule has an empty host' };
  if (proposed.network !== null && !proposed.network.some((p) => jsonEqual(p, amendment))) {
    return { _tag: 'MismatchedAmendment', message: 'the network rule is not one of the request\'s proposedNetworkPolicyAmendments' };
  }
  return null;
}

/**
 * The command decisions a card offers: the advertised ones that are usable, in order, without
 * duplicates, plus the entries it leaves out. `null`/absent `availableDecisions` → the
 * conservative set. `Left` when `availableDecisions` is neither absent, `null` nor an array.
 */
export function offeredCommandDecisions(
  available: unknown,
  proposed: ProposedAmendments,
): E.Either<string, { readonly decisions: ReadonlyArray<CommandExecutionApprovalDecisionStrict>; readonly ignored: ReadonlyArray<IgnoredDecision>; readonly conservative: boolean }> {
  if (available === undefined || available === null) return E.right({ decisions: CONSERVATIVE_DECISIONS, ignored: [], conservative: true });
  if (!Array.isArray(available)) return E.left(`availableDecisions is ${describePersistedValue(available)}, not an array`);
  const decisions: CommandExecutionApprovalDecisionStrict[] = [];
  const ignored: IgnoredDecision[] = [];
  (available as ReadonlyArray<unknown>).forEach((entry, index) => {
    const decoded = codecs.CommandExecutionApprovalDecisionStrict.decode(entry);
    if (E.isLeft(decoded)) return void ignored.push({ _tag: 'UnknownDecision', index, description: describePersistedValue(entry) });
    const decision = decoded.right;
    if (decisions.some((d) => jsonEqual(d, decision))) return void ignored.push({ _tag: 'DuplicateDecision', index });
    const problem = amendmentProblem(decision, proposed);
    if (problem !== null) return void ignored.push({ ...problem, index });
    decisions.push(decision);
  });
  return E.right({ decisions, ignored, conservative: false });
}

/** The option shown for a command decision. */
export function commandDecisionOption(decision: CommandExecutionApprovalDecisionStrict, subject: CommandSubject): DecisionOption {
  const network = typeof subject === 'object' ? subject.network : null;
  const what = network !== null ? `network access to ${showHost(network.host)}` : subject === 'stdin' ? 'this input' : 'this command';
  if (typeof decision === 'object') {
    if ('acceptWithExecpolicyAmendment' in decision) {
      const prefix = formatCommandPrefix(decision.acceptWithExecpolicyAmendment.execpolicy_amendment);
      return {
        label: `Always allow commands starting with "${prefix}"`,
        description: `Run now and add a rule so that commands starting with "${prefix}" run without asking from now on.`,
      };
    }
    const { host, action } = decision.applyNetworkPolicyAmendment.network_policy_amendment;
    return action === 'allow'
      ? { label: `Allow network access to ${showHost(host)}`, description: `Allow now and add a rule so that ${showHost(host)} is reachable without asking from now on.` }
      : { label: `Block network access to ${showHost(host)}`, description: `Don't allow it, and add a rule that blocks ${showHost(host)} from now on.` };
  }
  switch (decision) {
    case 'accept':
      return network !== null
        ? { label: 'Allow once', description: `Allow ${what} this time; ask again next time.` }
        : { label: subject === 'stdin' ? 'Send once' : 'Run once', description: `Allow ${what} this time; ask again next time.` };
    case 'acceptForSession':
      return { label: 'Allow for this session', description: `Allow ${what}, and the same request again, without asking until the session ends.` };
    case 'decline':
      return network !== null
        ? { label: "Don't allow", description: `Refuse ${what}; the task goes on without it.` }
        : { label: subject === 'stdin' ? "Don't send" : "Don't run", description: `Refuse ${what}; the task goes on without it.` };
    case 'cancel':
      return { label: 'Stop the task', description: `Refuse ${what} and stop the task.` };
  }
}

/** The decisions of a file-change request: what the protocol allows. */
export type FileChangeDecision = 'accept' | 'acceptForSession' | 'decline' | 'cancel';

/** The option shown for a file-change decision. */
export function fileChangeDecisionOption(decision: FileChangeDecision): DecisionOption {
  switch (decision) {
    case 'accept':
      return { label: 'Apply the changes', description: 'Apply these file changes; ask again for the next ones.' };
    case 'acceptForSession':
      return { label: 'Allow changes for this session', description: 'Apply these changes, and similar ones, without asking until the session ends.' };
    case 'decline':
      return { label: "Don't apply", description: 'Reject these changes; the task goes on without them.' };
    case 'cancel':
      return { label: 'Stop the task', description: 'Reject these changes and stop the task.' };
  }
}

/** Makes labels unique by numbering repeats (`Run once (2)`); distinct decisions normally have distinct labels already. */
export function uniqueLabels(options: ReadonlyArray<DecisionOption>): ReadonlyArray<DecisionOption> {
  const seen = new Set<string>();
  return options.map((option) => {
    let label = option.label;
    for (let n = 2; seen.has(label); n += 1) label = `${option.label} (${n})`;
    seen.add(label);
    return label === option.label ? option : { ...option, label };
  });
}
