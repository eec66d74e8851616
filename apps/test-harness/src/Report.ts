/**
 * The JSON report a scenario run writes: every message both ways, what each plugin received, what
 * the model received, the cards and how they were answered, timings, and the checks.
 */
import type { CodexVersionCheck } from '@wework/app-server-client';
import type { ProxyLogEntry } from './proxy/index.js';
import type { AnswerSource } from './ScriptedUser.js';

/** One JSON-RPC message between the harness and the app-server. */
export interface WireEntry {
  /** Milliseconds since the run started. */
  readonly atMs: number;
  readonly direction: 'toAppServer' | 'fromAppServer';
  readonly message: unknown;
}

/** A card (server request) and the scripted user's answer. */
export interface CardEntry {
  readonly atMs: number;
  readonly method: string;
  readonly params: unknown;
  readonly response: unknown;
  readonly source: AnswerSource;
  readonly problem?: string;
}

/** One turn as it ran. */
export interface TurnReport {
  readonly input: string;
  readonly turnId: string | null;
  readonly status: string;
  readonly expectedStatus: string;
  readonly durationMs: number;
  /** The assistant's messages in this turn, in order. */
  readonly agentMessages: ReadonlyArray<string>;
  /** The items Codex completed in this turn (`item/completed`), in order. */
  readonly items: ReadonlyArray<unknown>;
  readonly error: unknown;
}

/** One check of the scenario's `expect` block (or a built-in one). */
export interface CheckResult {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
}

/** The report of one scenario run. */
export interface ScenarioReport {
  readonly scenario: string;
  readonly passed: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly codex: {
    readonly commandLine: ReadonlyArray<string>;
    readonly codexHome: string;
    readonly userAgent: unknown;
    /** How the Codex version read from the user agent compares with the versions the adapters support; `null` when it did not start. */
    readonly version: CodexVersionCheck | null;
  };
  /** The effective `config.toml` content the app-server ran with (the scenario's overrides merged in). */
  readonly config: Readonly<Record<string, unknown>> | null;
  /** The effective `thread/start` params. */
  readonly threadParams: Readonly<Record<string, unknown>> | null;
  readonly timings: {
    readonly spawnToInitializedMs: number | null;
    readonly threadStartMs: number | null;
    /** Per plugin: when Codex reported its MCP startup settled, in ms since the run started. */
    readonly pluginsReadyMs: Readonly<Record<string, number>>;
    readonly turnsMs: ReadonlyArray<number>;
  };
  readonly turns: ReadonlyArray<TurnReport>;
  readonly cards: ReadonlyArray<CardEntry>;
  readonly checks: ReadonlyArray<CheckResult>;
  /** Every JSON-RPC message between the harness and the app-server, both ways, in order. */
  readonly wire: ReadonlyArray<WireEntry>;
  /** Per plugin: every MCP message between Codex and the plugin, as the recording proxy saw it. */
  readonly plugins: Readonly<Record<string, ReadonlyArray<ProxyLogEntry>>>;
  /** Every request Codex sent to the scripted model (credential headers redacted). */
  readonly model: { readonly requests: ReadonlyArray<unknown>; readonly unusedResponses: number };
  /** Client-side errors and events (transport errors, rejected server requests). */
  readonly events: ReadonlyArray<unknown>;
  /** The last bytes of the app-server's stderr. */
  readonly stderrTail: string;
  /** Set when the run could not complete (spawn failure, timeout...). */
  readonly error?: string;
}
