/**
 * Background synchronisation of the plugins bundled with the desktop app: which bundled package a
 * directory holds ({@link bundledPackageOf}), and the per-plugin state machine that decides when an
 * update check may run and what its status is ({@link requestUpdate}, {@link updateFinished},
 * {@link uninstallRequested}, {@link resumeSync}).
 *
 * A plugin is `idle` (nothing running; its status is `ok` or `updateFailed`), or `updating` (a check
 * was admitted and has not finished). At most one check of a plugin runs at a time. A manual
 * uninstall pauses the plugin: no new check is admitted, and the uninstall waits for the admitted one
 * (the state says whether there is one). An explicit reinstall resumes it. Every change of the visible
 * status is returned as a {@link StatusChange}, which the executor sends as `plugins/updateStatus`.
 *
 * Every function here is pure: a state and an input in, the next state and a decision out.
 */
import * as E from 'fp-ts/lib/Either.js';
import { inspectManifest } from './PluginManifest.js';
import { pluginKey, pluginRef, type PluginRef } from './PluginRef.js';

/** A bundled package directory, decoded: the plugin it holds and its version. */
export interface BundledPackage {
  readonly ref: PluginRef;
  readonly version: string;
}

/** Why a bundled package directory was skipped (a short reason, never a value from the package). */
export interface BundledPackageRejected {
  readonly _tag: 'BundledPackageRejected';
  readonly reason: 'ManifestUnreadable' | 'InvalidManifest' | 'MissingName' | 'MissingVersion' | 'InvalidName' | 'Duplicate';
}

const rejected = (reason: BundledPackageRejected['reason']): E.Either<BundledPackageRejected, never> => E.left({ _tag: 'BundledPackageRejected', reason });

/**
 * The bundled package described by a `.codex-plugin/plugin.json` (parsed JSON, untrusted; `undefined`
 * when it could not be read or parsed), published in `marketplace`.
 * @example
 * ```ts
 * bundledPackageOf({ name: 'wework-space', version: '1.2.0' }, 'wework');
 * // Right({ ref: { name: 'wework-space', marketplace: 'wework' }, version: '1.2.0' })
 * ```
 */
export const bundledPackageOf = (manifest: unknown, marketplace: string): E.Either<BundledPackageRejected, BundledPackage> => {
  if (manifest === undefined) return rejected('ManifestUnreadable');
  const inspected = inspectManifest(manifest);
  if (E.isLeft(inspected)) return rejected('InvalidManifest');
  if (inspected.right.name === null) return rejected('MissingName');
  if (inspected.right.version === null) return rejected('MissingVersion');
  const ref = pluginRef(inspected.right.name, marketplace);
  if (E.isLeft(ref)) return rejected('InvalidName');
  return E.right({ ref: ref.right, version: inspected.right.version });
};

/**
 * Decodes a list of bundled package manifests (in the order given): the packages, and the rejected
 * entries by index. A second package of the same plugin is a `Duplicate` (the first one counts).
 */
export const bundledPackagesOf = (
  manifests: ReadonlyArray<unknown>,
  marketplace: string,
): { readonly packages: ReadonlyArray<{ readonly index: number; readonly bundled: BundledPackage }>; readonly rejected: ReadonlyArray<{ readonly index: number; readonly error: BundledPackageRejected }> } => {
  const packages: Array<{ readonly index: number; readonly bundled: BundledPackage }> = [];
  const skipped: Array<{ readonly index: number; readonly error: BundledPackageRejected }> = [];
  manifests.forEach((manifest, index) => {
    const decoded = bundledPackageOf(manifest, marketplace);
    if (E.isLeft(decoded)) skipped.push({ index, error: decoded.left });
    else if (packages.some((known) => pluginKey(known.bundled.ref) === pluginKey(decoded.right.ref))) skipped.push({ index, error: { _tag: 'BundledPackageRejected', reason: 'Duplicate' } });
    else packages.push({ index, bundled: decoded.right });
  });
  return { packages, rejected: skipped };
};

/** The update status of a bundled plugin as hosts see it. */
export type UpdateStatus = { readonly kind: 'ok' } | { readonly kind: 'updating' } | { readonly kind: 'updateFailed'; readonly reason: string };

/** One bundled plugin's state. */
export interface PluginUpdateState {
  readonly status: UpdateStatus;
  /** A manual uninstall paused background synchronisation (until an explicit reinstall). */
  readonly paused: boolean;
}

/** The state of every bundled plugin, by plugin key (`name@marketplace`); a missing key is idle, `ok` and not paused. */
export type BundledUpdateState = Readonly<Record<string, PluginUpdateState>>;

/** No plugin checked yet. */
export const emptyUpdateState: BundledUpdateState = {};

const IDLE: PluginUpdateState = { status: { kind: 'ok' }, paused: false };

/** A plugin's state (idle, `ok`, not paused when unknown). */
export const updateStateOf = (state: BundledUpdateState, ref: PluginRef): PluginUpdateState => state[pluginKey(ref)] ?? IDLE;

/** A change of a plugin's visible status, to tell the hosts (`version`: the version it now has, or is being updated to). */
export interface StatusChange {
  readonly pluginId: string;
  readonly status: UpdateStatus;
  readonly version: string | null;
}

/** What a request for a check decided. */
export type UpdateAdmission =
  /** Run the check now (the status is `updating`). */
  | { readonly _tag: 'Admitted' }
  /** A check of this plugin is already running; it will see the latest package. */
  | { readonly _tag: 'AlreadyUpdating' }
  /** The user uninstalled the plugin: nothing runs until an explicit reinstall. */
  | { readonly _tag: 'Paused' };

const put = (state: BundledUpdateState, ref: PluginRef, next: PluginUpdateState): BundledUpdateState => ({ ...state, [pluginKey(ref)]: next });

const sameStatus = (a: UpdateStatus, b: UpdateStatus): boolean => a.kind === b.kind && (a.kind !== 'updateFailed' || (b.kind === 'updateFailed' && a.reason === b.reason));

/** A transition's result: the next state, the decision and the status change to announce (`null`: none). */
export interface Transition<D> {
  readonly state: BundledUpdateState;
  readonly decision: D;
  readonly change: StatusChange | null;
}

/**
 * Asks to check (and if needed update) `ref` to `version`: admitted unless paused or already running.
 * An admitted check makes the status `updating`.
 * @example
 * ```ts
 * const { state, decision } = requestUpdate(emptyUpdateState, ref, '2.0.0');
 * // decision: { _tag: 'Admitted' }; updateStateOf(state, ref).status: { kind: 'updating' }
 * ```
 */
export const requestUpdate = (state: BundledUpdateState, ref: PluginRef, version: string): Transition<UpdateAdmission> => {
  const current = updateStateOf(state, ref);
  if (current.paused) return { state, decision: { _tag: 'Paused' }, change: null };
  if (current.status.kind === 'updating') return { state, decision: { _tag: 'AlreadyUpdating' }, change: null };
  const status: UpdateStatus = { kind: 'updating' };
  return { state: put(state, ref, { ...current, status }), decision: { _tag: 'Admitted' }, change: { pluginId: pluginKey(ref), status, version } };
};

/** How an admitted check ended. */
export type UpdateOutcome =
  /** Nothing to do, or upgraded: the plugin now has `version`. */
  | { readonly _tag: 'Succeeded'; readonly version: string }
  /** The user uninstalled the plugin (the sync manifest's tombstone): nothing was written, nothing is installed. */
  | { readonly _tag: 'Skipped' }
  /** The check or the upgrade failed (a short reason: a typed error's tag); the previous cache is in place. */
  | { readonly _tag: 'Failed'; readonly reason: string; readonly version: string | null };

/** The reason of the failed status a check that found the plugin uninstalled ends with. */
export const UNINSTALLED_REASON = 'Uninstalled';

/**
 * An admitted check of `ref` ended: `Succeeded` makes the status `ok`, `Failed` makes it
 * `updateFailed` with its reason. `Skipped` (the user uninstalled the plugin: nothing is installed)
 * never reports `ok`: the check ends `updateFailed` with the reason {@link UNINSTALLED_REASON}, and
 * the plugin is paused as after {@link uninstallRecorded}. A finish without an admitted check changes
 * nothing.
 * @example
 * ```ts
 * const { state } = requestUpdate(emptyUpdateState, ref, '2.0.0');
 * updateFinished(state, ref, { _tag: 'Skipped' }).change;
 * // { pluginId, status: { kind: 'updateFailed', reason: 'Uninstalled' }, version: null }
 * ```
 */
export const updateFinished = (state: BundledUpdateState, ref: PluginRef, outcome: UpdateOutcome): Transition<null> => {
  const current = updateStateOf(state, ref);
  if (current.status.kind !== 'updating') return { state, decision: null, change: null };
  const status: UpdateStatus =
    outcome._tag === 'Succeeded' ? { kind: 'ok' } : { kind: 'updateFailed', reason: outcome._tag === 'Failed' ? outcome.reason : UNINSTALLED_REASON };
  const version = outcome._tag === 'Skipped' ? null : outcome.version;
  const next: PluginUpdateState = { status, paused: current.paused || outcome._tag === 'Skipped' };
  return { state: put(state, ref, next), decision: null, change: sameStatus(current.status, status) ? null : { pluginId: pluginKey(ref), status, version } };
};

/** What a manual uninstall must do first. */
export type UninstallGate =
  /** An admitted check is still running: wait for it to finish, then uninstall. */
  | { readonly _tag: 'WaitForUpdate' }
  /** Nothing is running: uninstall now. */
  | { readonly _tag: 'Proceed' };

/**
 * The user asked to uninstall `ref`: background synchronisation of it pauses (no check is admitted
 * any more). A failed status is cleared (the plugin is going away; it is still installed while the
 * uninstall waits). `installed` says whether the plugin is installed now (default `true`): the
 * uninstall of a plugin that is not installed, with no check running, changes nothing — there is
 * nothing to pause, and clearing its failed status would report `ok` for a plugin that is not there.
 * @example
 * ```ts
 * uninstallRequested(emptyUpdateState, ref).decision; // { _tag: 'Proceed' }, and ref is paused
 * ```
 */
export const uninstallRequested = (state: BundledUpdateState, ref: PluginRef, installed = true): Transition<UninstallGate> => {
  const current = updateStateOf(state, ref);
  if (!installed && current.status.kind !== 'updating') return { state, decision: { _tag: 'Proceed' }, change: null };
  const decision: UninstallGate = current.status.kind === 'updating' ? { _tag: 'WaitForUpdate' } : { _tag: 'Proceed' };
  const status: UpdateStatus = current.status.kind === 'updateFailed' ? { kind: 'ok' } : current.status;
  return {
    state: put(state, ref, { status, paused: true }),
    decision,
    change: sameStatus(current.status, status) ? null : { pluginId: pluginKey(ref), status, version: null },
  };
};

/**
 * The user's uninstall of `ref` is recorded (the sync manifest holds its tombstone): found at
 * start-up, or after an uninstall committed. The plugin is paused until an explicit reinstall; its
 * status is kept and nothing is announced (an admitted check still running ends as `Skipped`).
 * @example
 * ```ts
 * const { state } = uninstallRecorded(emptyUpdateState, ref);
 * requestUpdate(state, ref, '2.0.0').decision; // { _tag: 'Paused' }
 * ```
 */
export const uninstallRecorded = (state: BundledUpdateState, ref: PluginRef): Transition<null> => {
  const current = updateStateOf(state, ref);
  return { state: current.paused ? state : put(state, ref, { ...current, paused: true }), decision: null, change: null };
};

/**
 * Background synchronisation of `ref` resumes: the user explicitly installed it again, or the
 * uninstall that paused it failed.
 */
export const resumeSync = (state: BundledUpdateState, ref: PluginRef): BundledUpdateState => put(state, ref, { ...updateStateOf(state, ref), paused: false });
