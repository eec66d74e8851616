/**
 * The shapes the executor's services answer through the host protocol: the app-server's runtime status,
 * the device's accounts, the plugins, the supervision model and an inspection.
 *
 * Every value here is plain data; the codecs are pure.
 */
import * as t from 'io-ts';
import { nullable } from './internal/nullable.js';


/** The supervised app-server's state as hosts see it. */
export const RuntimeState = t.keyof({ starting: null, ready: null, restarting: null, failed: null, stopped: null }, 'RuntimeState');
/** See the codec {@link RuntimeState}. */
export type RuntimeState = t.TypeOf<typeof RuntimeState>;

/** A change of the app-server's state, with why: what every `runtime/status` notification carries. */
export const RuntimeStatus = t.type(
  {
    state: RuntimeState,
    /** Why it is not ready (a sentence without secrets), or null. */
    reason: nullable(t.string),
    /** The exit code of the process that ended, when it exited. */
    exitCode: nullable(t.number),
    /** The signal that ended it, when a signal did. */
    signal: nullable(t.string),
    /** The last lines the process wrote to stderr, secrets redacted, at most 2,000 characters. */
    stderrTail: nullable(t.string),
    /** Unexpected ends within the crash-loop window (the limit makes it `failed`). */
    crashes: t.number,
    /** While `restarting`: the backoff before the next start, in milliseconds. */
    retryInMs: nullable(t.number),
    /** The pid of the ready process. */
    pid: nullable(t.number),
  },
  'RuntimeStatus',
);
/** See the codec {@link RuntimeStatus}. */
export type RuntimeStatus = t.TypeOf<typeof RuntimeStatus>;

/** An account of this device as the Authentication section lists it (non-secret claims only). */
export const ListedAccount = t.type(
  {
    id: t.string,
    kind: t.keyof({ chatgpt: null, apiKey: null, other: null }),
    authMode: nullable(t.string),
    email: nullable(t.string),
    planType: nullable(t.string),
    chatgptAccountId: nullable(t.string),
    chatgptUserId: nullable(t.string),
    /** This is the account of the active auth.json. */
    active: t.boolean,
    /** A snapshot of this account is saved. */
    saved: t.boolean,
  },
  'ListedAccount',
);
/** See the codec {@link ListedAccount}. */
export type ListedAccount = t.TypeOf<typeof ListedAccount>;

/** The accounts of this device: the result of `accounts/list`. */
export const AccountList = t.type(
  {
    accounts: t.readonlyArray(ListedAccount),
    activeAccountId: nullable(t.string),
    /** `unreadable`: auth.json exists but is not a JSON object. */
    activeAuth: t.keyof({ absent: null, present: null, unreadable: null }),
    /** The index was missing entries, listed missing snapshots or was corrupt, and was rewritten. */
    indexRepaired: t.boolean,
  },
  'AccountList',
);
/** See the codec {@link AccountList}. */
export type AccountList = t.TypeOf<typeof AccountList>;

/** One plugin as the management page lists it. */
export const PluginSummary = t.type(
  {
    /** `<plugin>@<marketplace>`. */
    pluginId: t.string,
    name: t.string,
    marketplace: t.string,
    installed: t.boolean,
    enabled: t.boolean,
    description: nullable(t.string),
  },
  'PluginSummary',
);
/** See the codec {@link PluginSummary}. */
export type PluginSummary = t.TypeOf<typeof PluginSummary>;

/** The supervision model configuration as it arrives from the host (held in memory only, never logged). */
export const SupervisionModelConfig = t.intersection(
  [
    t.type({
      model: t.string,
      /** The provider id the inspection thread uses (`[model_providers.<id>]`, set for that thread only). */
      providerId: t.string,
      baseUrl: t.string,
    }),
    t.partial({
      name: t.string,
      /** Sent as `Authorization: Bearer …`. */
      bearerToken: t.string,
      /** Extra HTTP headers (e.g. a gateway key). */
      headers: t.record(t.string, t.string),
    }),
  ],
  'SupervisionModelConfig',
);
/** See the codec {@link SupervisionModelConfig}. */
export type SupervisionModelConfig = t.TypeOf<typeof SupervisionModelConfig>;

/** The result of `supervision/inspect`. */
export const Inspection = t.type(
  {
    /** The ephemeral thread the inspection ran in. */
    threadId: t.string,
    status: t.string,
    /** The inspection model's messages, in order. */
    messages: t.readonlyArray(t.string),
  },
  'Inspection',
);
/** See the codec {@link Inspection}. */
export type Inspection = t.TypeOf<typeof Inspection>;
