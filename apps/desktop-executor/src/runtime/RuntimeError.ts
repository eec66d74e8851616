/**
 * What can go wrong in the executor's local runtime, as one `_tag`ged union, and its description for a
 * person. Every function here is pure.
 */

/** Why the runtime could not do what was asked. */
export type RuntimeError =
  | { readonly _tag: 'AppServerDidNotStart'; readonly reason: string }
  | { readonly _tag: 'PluginsNotReady'; readonly reason: string }
  | { readonly _tag: 'RequestFailed'; readonly method: string; readonly reason: string }
  | { readonly _tag: 'TurnDidNotFinish'; readonly reason: string };

/** Describes a {@link RuntimeError} for a person. */
export function describeRuntimeError(error: RuntimeError): string {
  switch (error._tag) {
    case 'AppServerDidNotStart':
      return `codex app-server did not start: ${error.reason}`;
    case 'PluginsNotReady':
      return error.reason;
    case 'RequestFailed':
      return `${error.method} failed: ${error.reason}`;
    case 'TurnDidNotFinish':
      return `the turn did not finish: ${error.reason}`;
  }
}
