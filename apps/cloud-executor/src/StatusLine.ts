/**
 * The status line the executor writes for each processed message (and for each retry of failed
 * removals): one JSON object per line.
 *
 * ```json
 * {"type":"status","outcome":"Reconciled","ok":true,"trigger":"message","revision":7,"actions":[{"plugin":"team-skills@wegent","action":"install","reason":"Missing","version":"1.0.0","result":"Committed"}],"runtime":{"_tag":"Reloaded","skills":["standup"]}}
 * {"type":"status","outcome":"Rejected","ok":false,"error":{"_tag":"InvalidJson"}}
 * ```
 *
 * Every function here is pure.
 */
import type { SyncError } from '@wework/sync-transaction';
import type { MessageError } from './DesiredState.js';
import type { InstallReason, RemoveReason } from './Reconcile.js';

/** A typed error as a status line carries it: its tag and, where one helps, a short detail (never file contents). */
export interface ErrorReport {
  readonly _tag: string;
  readonly detail?: string;
}

/** What happened to one plugin. */
export interface ActionReport {
  /** `<plugin>@<marketplace>`. */
  readonly plugin: string;
  readonly action: 'install' | 'remove';
  readonly reason: InstallReason | RemoveReason;
  readonly version?: string;
  /** `Deferred`: a failed removal waiting for its backoff; `Unchanged`: the device already held it. */
  readonly result: 'Committed' | 'Unchanged' | 'Failed' | 'Deferred';
  readonly error?: ErrorReport;
  /** For a failed or deferred removal: when it is attempted again (epoch ms). */
  readonly nextAttemptAt?: number;
}

/** How the running app-server took the committed changes. */
export type RuntimeReport =
  | { readonly _tag: 'NothingToApply' }
  | { readonly _tag: 'Reloaded'; readonly skills: ReadonlyArray<string> }
  | { readonly _tag: 'Restarted'; readonly reason: string }
  | { readonly _tag: 'RestartFailed'; readonly reason: string };

/** What made the executor reconcile. */
export type Trigger = 'message' | 'retry';

/** One status line. `ok` is true when everything asked was done. */
export type StatusLine =
  | {
      readonly type: 'status';
      readonly outcome: 'Reconciled';
      readonly ok: boolean;
      readonly trigger: Trigger;
      readonly revision: number;
      readonly actions: ReadonlyArray<ActionReport>;
      readonly runtime: RuntimeReport;
    }
  | { readonly type: 'status'; readonly outcome: 'Rejected'; readonly ok: false; readonly error: MessageError }
  | { readonly type: 'status'; readonly outcome: 'Ignored'; readonly ok: true; readonly revision: number; readonly reason: 'StaleRevision'; readonly appliedRevision: number }
  | { readonly type: 'status'; readonly outcome: 'Failed'; readonly ok: false; readonly trigger: Trigger; readonly revision: number; readonly error: ErrorReport };

/** The report of a sync transaction's error. */
export const syncErrorReport = (error: SyncError): ErrorReport => {
  switch (error._tag) {
    case 'PackageRejected':
      return { _tag: error._tag, detail: `${error.reason}: ${error.entry}` };
    case 'ExtractionFailed':
      return { _tag: error._tag, detail: error.detail };
    case 'PackageRefused':
      return { _tag: error._tag, detail: error.reason };
    case 'LinkInHome':
      return { _tag: error._tag, detail: error.path };
    case 'ParseFailed':
      return { _tag: error._tag, detail: error.file };
    case 'InvalidIdentifier':
      return { _tag: error._tag, detail: error.field };
    case 'OwnershipConflict':
    case 'NotARegularFile':
      return { _tag: error._tag, detail: error.path };
    case 'TransactionRolledBack':
      return { _tag: error._tag, detail: `${error.failedStep}: ${error.cause.code}` };
    case 'FileSystemError':
      return { _tag: error._tag, detail: `${error.operation}: ${error.code}` };
    default:
      return { _tag: error._tag };
  }
};

/** Whether every action was done and the runtime took it. */
export const allDone = (actions: ReadonlyArray<ActionReport>, runtime: RuntimeReport): boolean =>
  runtime._tag !== 'RestartFailed' && actions.every((action) => action.result === 'Committed' || action.result === 'Unchanged');

/** The line as written: JSON, no newline. */
export const formatStatusLine = (line: StatusLine): string => JSON.stringify(line);
