/**
 * Checking whether a connector is logged in on this device, with a cache of healthy results keyed by
 * device, plugin and connector. Pure orchestration over the {@link BridgeRunner}, {@link ToolResolver}
 * and {@link Timers} ports.
 *
 * Plugin installation is user-scoped but CLI credentials are device-scoped: a healthy result on one
 * device says nothing about another, so the device id is part of every cache key.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { Timers } from '@wework/ports';
import type { BridgeError } from './BridgeError.js';
import type { ConnectorLocalAuth } from './LocalAuthManifest.js';
import type { ToolError } from './ManagedTool.js';
import type { BridgeRunner, ToolResolver } from './Ports.js';
import { HEALTH_TIMEOUT_MS } from './Ports.js';

/** A connector of a plugin synchronised to this device. */
export interface AuthTarget {
  /** The plugin's identity, such as `dingtalk@wegent`. */
  readonly pluginKey: string;
  /** Absolute path of the synchronised plugin on this device. */
  readonly pluginRoot: string;
  readonly connector: ConnectorLocalAuth;
}

/** The bridge reported a status that is neither logged in nor logged out. */
export interface HealthUnclear {
  readonly _tag: 'HealthUnclear';
  readonly connector: string;
  readonly status: 'pending' | 'error';
  readonly message: string;
}

/** Why the health of a connector is unknown. */
export type HealthError = BridgeError | ToolError | HealthUnclear;

/** What a health command said. */
export type Health = { readonly loggedIn: true; readonly account: string | undefined } | { readonly loggedIn: false; readonly message: string | undefined };

/** Resolves the connector's tool, if it declares one. */
export async function resolveTool(tools: ToolResolver, target: AuthTarget, signal?: AbortSignal): Promise<E.Either<ToolError, string | undefined>> {
  const tool = target.connector.localAuth.tool;
  if (tool === undefined) return E.right(undefined);
  return tools.resolve(tool, signal);
}

/** What {@link runHealth} needs. */
export interface HealthDeps {
  readonly runner: BridgeRunner;
  readonly tools: ToolResolver;
  /** Default {@link HEALTH_TIMEOUT_MS}. */
  readonly healthTimeoutMs?: number;
}

/**
 * Runs the connector's health command once (no cache).
 *
 * @example
 * ```ts
 * const health = await runHealth({ runner, tools }, { pluginKey: 'gitlab@wegent', pluginRoot, connector });
 * // Right({ loggedIn: false, message: 'Not logged in' })
 * ```
 */
export async function runHealth(deps: HealthDeps, target: AuthTarget, signal?: AbortSignal): Promise<E.Either<HealthError, Health>> {
  const toolPath = await resolveTool(deps.tools, target, signal);
  if (E.isLeft(toolPath)) return toolPath;
  const status = await deps.runner.run({
    connector: target.connector.slug,
    command: 'health',
    pluginRoot: target.pluginRoot,
    argv: target.connector.localAuth.health,
    timeoutMs: deps.healthTimeoutMs ?? HEALTH_TIMEOUT_MS,
    ...(toolPath.right === undefined ? {} : { toolPath: toolPath.right }),
    ...(signal === undefined ? {} : { signal }),
  });
  if (E.isLeft(status)) return status;
  const { status: state, account, message } = status.right;
  if (state === 'ok') return E.right({ loggedIn: true, account });
  if (state === 'needs_login') return E.right({ loggedIn: false, message });
  return E.left({
    _tag: 'HealthUnclear',
    connector: target.connector.slug,
    status: state,
    message: `The health command of connector "${target.connector.slug}" answered "${state}" instead of "ok" or "needs_login".`,
  });
}

/** The cache key of a connector on a device. */
export const healthKey = (deviceId: string, pluginKey: string, connectorSlug: string): string => JSON.stringify([deviceId, pluginKey, connectorSlug]);

/**
 * Remembers healthy results for `ttlMs`, per device, plugin and connector. Only healthy results are
 * kept: a logged-out or failed check is always repeated.
 */
export class HealthCache {
  readonly #entries = new Map<string, { readonly at: number; readonly account: string | undefined }>();

  /** @param ttlMs how long a healthy result counts (default five minutes). */
  constructor(readonly ttlMs: number = 300_000) {}

  /** A healthy result still valid at `now`. */
  get(key: string, now: number): { readonly account: string | undefined } | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (now - entry.at >= this.ttlMs || now < entry.at) {
      this.#entries.delete(key);
      return undefined;
    }
    return { account: entry.account };
  }

  /** Records a healthy result at `now`. */
  remember(key: string, now: number, account: string | undefined): void {
    this.#entries.set(key, { at: now, account });
  }

  /** Forgets a result (after a logout, or when a runtime check said the login expired). */
  forget(key: string): void {
    this.#entries.delete(key);
  }
}

/** A health checker bound to one device. */
export interface DeviceHealth {
  readonly deviceId: string;
  /**
   * The health of a connector on this device: a cached healthy result unless `bypassCache`, else a
   * fresh check (healthy results are cached).
   */
  check(target: AuthTarget, options?: { readonly bypassCache?: boolean; readonly signal?: AbortSignal }): Promise<E.Either<HealthError, Health>>;
  /** Records a login that just succeeded. */
  markHealthy(target: AuthTarget, account: string | undefined): void;
  /** Forgets a cached healthy result. */
  forget(target: AuthTarget): void;
}

/**
 * A {@link DeviceHealth} for `deviceId`, sharing `cache` with other devices' checkers safely (keys
 * include the device).
 */
export function deviceHealth(deps: HealthDeps & { readonly deviceId: string; readonly timers: Pick<Timers, 'now'>; readonly cache: HealthCache }): DeviceHealth {
  const key = (target: AuthTarget): string => healthKey(deps.deviceId, target.pluginKey, target.connector.slug);
  return {
    deviceId: deps.deviceId,
    async check(target, options = {}) {
      if (options.bypassCache !== true) {
        const cached = deps.cache.get(key(target), deps.timers.now());
        if (cached !== undefined) return E.right({ loggedIn: true, account: cached.account });
      }
      const health = await runHealth(deps, target, options.signal);
      if (E.isRight(health) && health.right.loggedIn) deps.cache.remember(key(target), deps.timers.now(), health.right.account);
      else deps.cache.forget(key(target));
      return health;
    },
    markHealthy(target, account) {
      deps.cache.remember(key(target), deps.timers.now(), account);
    },
    forget(target) {
      deps.cache.forget(key(target));
    },
  };
}
