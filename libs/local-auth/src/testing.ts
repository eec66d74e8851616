/**
 * `@wework/local-auth/testing`: fast-check arbitraries of manifests, statuses and final messages, and
 * a scripted bridge runner, so hosts can test their own use without processes (the manual timers are
 * `@wework/ports/testing`'s). Needs `fast-check` (an optional peer dependency).
 *
 * Every value here is pure: arbitraries describe values; fast-check supplies the randomness.
 */
import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type { BridgeError } from './BridgeError.js';
import { bridgeError } from './BridgeError.js';
import type { BridgeStatus } from './BridgeStatus.js';
import type { BridgeInvocation, BridgeRunner } from './Ports.js';
import { isAborted } from './internal/Abort.js';


const segment = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
const program = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `${parts.join('/')}.mjs`);
const argument = fc.stringMatching(/^[a-z0-9=.,:_-]{1,12}$/);
const argv = fc.tuple(program, fc.array(argument, { maxLength: 3 })).map(([first, rest]) => [first, ...rest]);

/** A valid `localAuth` section as JSON (QR or browser OAuth, with or without optional fields). */
export const localAuthJsonArbitrary: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record(
    { type: fc.constant('local_qr'), health: argv, start: argv, poll: argv, authPolicy: fc.constantFrom('on_install', 'on_first_use', 'manual'), logoutOnUninstall: fc.boolean(), logout: argv },
    { requiredKeys: ['type', 'health', 'start', 'poll'] },
  ),
  fc.record(
    { type: fc.constant('browser_oauth'), health: argv, start: argv, authPolicy: fc.constantFrom('on_install', 'on_first_use', 'manual'), logoutOnUninstall: fc.boolean(), logout: argv },
    { requiredKeys: ['type', 'health', 'start'] },
  ),
);

/** A plugin manifest whose connectors declare valid `localAuth` sections under distinct slugs. */
export const manifestArbitrary: fc.Arbitrary<{ readonly connectors: ReadonlyArray<{ readonly slug: string; readonly localAuth: Record<string, unknown> }> }> = fc
  .uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), localAuthJsonArbitrary), { maxLength: 4, selector: ([slug]) => slug })
  .map((entries) => ({ connectors: entries.map(([slug, localAuth]) => ({ slug, localAuth })) }));

/** A status object without credential-like content. */
export const bridgeStatusArbitrary: fc.Arbitrary<BridgeStatus> = fc.record(
  {
    status: fc.constantFrom('ok', 'needs_login', 'pending', 'error'),
    qr: fc.record({ payload: fc.webUrl() }),
    url: fc.webUrl(),
    message: fc.lorem({ maxCount: 8 }),
    account: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,20}$/),
  },
  { requiredKeys: ['status'] },
);

/** A final assistant message that carries `connector_auth_required` for `pluginKey`/`connectorSlug`. */
export const authRequiredMessageArbitrary = (pluginKey: string, connectorSlug: string): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    fc.lorem({ maxCount: 20 }).map((prose) => ({
      role: 'assistant',
      content: `${prose}\nconnector_auth_required pluginKey=${pluginKey} connectorSlug=${connectorSlug}`,
    })),
    fc.tuple(fc.lorem({ maxCount: 10 }), fc.stringMatching(/^[a-z]{1,8}\.[a-z_]{1,12}$/)).map(([prose, name]) => ({
      role: 'assistant',
      content: prose,
      blocks: [{ type: 'tool', name, error: { code: 'connector_auth_required', message: 'Login required', pluginKey, connectorSlug }, renderPayload: { huge: prose } }],
    })),
  );

/** What a {@link scriptedBridgeRunner} does for one invocation. */
export type ScriptedStep = E.Either<BridgeError, BridgeStatus> | 'hang';

/** A scripted, in-memory {@link BridgeRunner}; `invocations` records every run. */
export interface ScriptedBridgeRunner extends BridgeRunner {
  readonly invocations: BridgeInvocation[];
}

/**
 * A {@link BridgeRunner} that answers from `script` instead of running processes. `'hang'` waits until the
 * invocation is aborted (then `BridgeCancelled`). `onSpawn` is called before every answer.
 *
 * @example
 * ```ts
 * const runner = scriptedBridgeRunner((invocation) => invocation.command === 'health' ? E.right({ status: 'needs_login' }) : 'hang');
 * ```
 */
export function scriptedBridgeRunner(script: (invocation: BridgeInvocation, index: number) => ScriptedStep | Promise<ScriptedStep>): ScriptedBridgeRunner {
  const invocations: BridgeInvocation[] = [];
  return {
    invocations,
    async run(invocation) {
      const index = invocations.push(invocation) - 1;
      const at = { connector: invocation.connector, command: invocation.command };
      if (isAborted(invocation.signal)) return E.left(bridgeError.cancelled(at));
      invocation.onSpawn?.();
      const step = await script(invocation, index);
      if (step !== 'hang') return isAborted(invocation.signal) ? E.left(bridgeError.cancelled(at)) : step;
      return new Promise((resolve) => {
        if (invocation.signal === undefined) return;
        if (invocation.signal.aborted) return resolve(E.left(bridgeError.cancelled(at)));
        invocation.signal.addEventListener('abort', () => resolve(E.left(bridgeError.cancelled(at))), { once: true });
      });
    },
  };
}
