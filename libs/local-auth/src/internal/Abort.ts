/**
 * Whether a signal has aborted, as a call so that TypeScript does not narrow `signal.aborted` across
 * awaits (it can change while a promise is pending). Pure.
 */
export const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;
