/**
 * The mapping of every error variant to its host reply, as properties: a message never shows a path
 * separator sequence, a string of the request, or Codex's or the OS's own text (which carry absolute
 * paths), whatever those strings are; the code is the one `docs/host-protocol.md`'s error table lists
 * for the tag, and `data` is a `HostErrorData`.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { HostErrorCode, HostErrorData, hostErrorData } from '@wework/host-protocol';
import { categoryText, hostFailure, runtimeFailure, type ManagementFault, type MarketplaceFault, type RuntimeFault } from '../src/index.js';
import type { AccountFault, HostError, SendFault, TaskFault } from '../src/HostErrors.js';

/** A request's string: any text, sometimes a valid identity, always marked so that it cannot occur in a fixed sentence by chance. */
const requestString = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), fc.constant('alpha')).map((text) => `\u00ab${text}`);

/** Codex's or the OS's own text: a message with an absolute path in it. */
const foreignText = fc
  .tuple(
    fc.constantFrom('/home/x/.codex/config.toml', 'C:\\Users\\x\\.codex\\auth.json', '/tmp/executor-home/codex/plugins/cache/a/b', '\\\\server\\share\\x', 'D:/work/x'),
    fc.constantFrom('failed to load ', 'No space left on device (os error 28): ', "ENOSPC: no space left on device, open '", 'permission denied: ', ''),
    fc.string({ maxLength: 20 }),
  )
  .map(([path, prefix, tail]) => `${prefix}${path}${tail}`);

/** The executor's own category text, or a foreign text where a reason goes. */
const reason = fc.oneof(foreignText, fc.constantFrom('config/read failed with -32603', 'the app-server exited (code null, signal SIGKILL)', 'timed out', 'aborted'));
const method = fc.constantFrom('config/read', 'config/batchWrite', 'plugin/install', 'skills/config/write', 'marketplace/add');
const errno = fc.constantFrom('ENOSPC', 'EDQUOT', 'EACCES', 'EIO', 'ENOENT', 'EXDEV', 'EROFS');
const tagWord = fc.constantFrom('RequestFailed', 'RefOnlyForGit', 'Superseded', 'LinkInHome', 'FileTooLarge', 'InvalidSource');

const runtimeFault: fc.Arbitrary<RuntimeFault> = fc.oneof(
  reason.map((why) => ({ _tag: 'AppServerDidNotStart' as const, reason: why })),
  reason.map((why) => ({ _tag: 'PluginsNotReady' as const, reason: why })),
  fc.tuple(method, reason).map(([m, why]) => ({ _tag: 'RequestFailed' as const, method: m, reason: why })),
  reason.map((why) => ({ _tag: 'TurnDidNotFinish' as const, reason: why })),
  fc.tuple(reason, fc.boolean()).map(([why, retryable]) => ({ _tag: 'RuntimeUnavailable' as const, reason: why, retryable })),
  fc.tuple(method, fc.nat(600_000)).map(([m, timeoutMs]) => ({ _tag: 'RuntimeTimedOut' as const, method: m, timeoutMs })),
  method.map((m) => ({ _tag: 'Overloaded' as const, method: m })),
  fc.nat(1000).map((limit) => ({ _tag: 'TooManyWaiting' as const, limit })),
);

const taskFault: fc.Arbitrary<TaskFault> = fc.oneof(
  fc.constantFrom('TaskNotFound' as const, 'TaskExists' as const, 'TaskArchived' as const).chain((_tag) => requestString.map((taskId) => ({ _tag, taskId }))),
  fc.tuple(requestString, requestString).map(([taskId, routeId]) => ({ _tag: 'ModelRouterRegistrationMissing' as const, taskId, routeId })),
  runtimeFault.map((error) => ({ _tag: 'Runtime' as const, error })),
);

const managementFault: fc.Arbitrary<ManagementFault> = fc.oneof(
  requestString.map((pluginId) => ({ _tag: 'PluginNotFound' as const, pluginId })),
  requestString.map((marketplace) => ({ _tag: 'MarketplaceNotFound' as const, marketplace })),
  fc.constant({ _tag: 'SkillNotFound' as const }),
  fc.constant({ _tag: 'AppNotFound' as const }),
  reason.map((message) => ({ _tag: 'InstallRefused' as const, message })),
  reason.map((why) => ({ _tag: 'InventoryUnreadable' as const, reason: why })),
  fc.tuple(method, fc.oneof(tagWord, foreignText)).map(([m, kind]) => ({ _tag: 'CodexFailed' as const, method: m, kind })),
  runtimeFault.map((error) => ({ _tag: 'Runtime' as const, error })),
  fc.tuple(fc.oneof(tagWord, foreignText), reason).map(([tag, message]) => ({ _tag: 'CloudFailed' as const, tag, message })),
);

const marketplaceFault: fc.Arbitrary<MarketplaceFault> = fc.oneof(
  requestString.map((name) => ({ _tag: 'MarketplaceNotFound' as const, name })),
  requestString.map((name) => ({ _tag: 'OfficialNotEditable' as const, name })),
  fc
    .tuple(fc.constantFrom('UnknownMarketplace' as const, 'OfficialNotReorderable' as const, 'DuplicateMarketplace' as const, 'MissingMarketplace' as const), requestString)
    .map(([_tag, name]) => ({ _tag: 'ReorderRefused' as const, reason: { _tag, name } })),
  fc.oneof(tagWord, foreignText).map((why) => ({ _tag: 'MarketplaceRefused' as const, reason: why })),
  fc.oneof(tagWord, foreignText).map((why) => ({ _tag: 'OfficialUnavailable' as const, reason: why })),
  fc.oneof(errno, foreignText).map((why) => ({ _tag: 'PreferencesUnwritable' as const, reason: why })),
  fc.tuple(requestString, requestString).map(([marketplace, plugin]) => ({ _tag: 'CatalogPluginNotFound' as const, marketplace, plugin })),
  fc.oneof(tagWord, foreignText).map((why) => ({ _tag: 'CatalogUnavailable' as const, reason: why })),
  runtimeFault.map((error) => ({ _tag: 'Runtime' as const, error })),
);

const accountFault: fc.Arbitrary<AccountFault> = fc.oneof(
  fc.tuple(fc.constantFrom('UnknownAccount', 'NoActiveAuth', 'SwitchWhileBusy', 'SnapshotRefused', 'CorruptAccountIndex', 'MalformedAuthFile'), requestString).map(([_tag, accountId]) => ({ _tag: 'Accounts' as const, error: { _tag, accountId } })),
  fc.tuple(fc.constantFrom('write', 'rename', 'mkdir'), fc.oneof(errno, foreignText), foreignText).map(([operation, code, path]) => ({ _tag: 'Accounts' as const, error: { _tag: 'FileSystemError', operation, code, path } })),
  fc.oneof(
    reason.map((why) => ({ _tag: 'LoginDidNotStart' as const, reason: why })),
    fc.constant({ _tag: 'LoginCancelled' as const }),
    fc.nat(3_600_000).map((timeoutMs) => ({ _tag: 'LoginTimedOut' as const, timeoutMs })),
    reason.map((why) => ({ _tag: 'LoginFailed' as const, reason: why })),
  ).map((error) => ({ _tag: 'Login' as const, error })),
  runtimeFault.map((error) => ({ _tag: 'Runtime' as const, error })),
  fc.tuple(fc.nat(3), fc.nat(3), fc.nat(3)).map(([turns, requests, pending]) => ({
    _tag: 'SwitchWhileBusy' as const,
    activity: { activeTurns: Array.from({ length: turns }, () => 't'), requestsInFlight: Array.from({ length: requests }, () => 1), serverRequestsPending: Array.from({ length: pending }, () => 2) },
  })),
);

/**
 * Every refusal of `message/send` as the libraries build it, with what they carry that a message may not
 * show: model-catalog's model name, the models available and its own sentence naming them, a mention's
 * index and target path, the delivery rules' reason (the sentence names its kind, nothing else).
 */
const sendFault: fc.Arbitrary<SendFault> = fc.oneof(
  fc.tuple(requestString, fc.array(requestString, { maxLength: 3 })).map(([model, available]) => ({
    _tag: 'ModelUnavailable' as const,
    model,
    available,
    message: `The model ${JSON.stringify(model)} is not available right now. Choose an available model to send: ${available.join(', ')}.`,
  })),
  fc.array(requestString, { maxLength: 3 }).map((available) => ({ _tag: 'NoDefaultModel' as const, available, message: `No default model is set. Choose an available model to send: ${available.join(', ')}.` })),
  fc.oneof(
    fc.nat(20).map((index) => ({ _tag: 'EmptyName' as const, index })),
    fc.tuple(fc.nat(20), fc.constantFrom('path' as const, 'connectorId' as const, 'pluginName' as const, 'marketplaceName' as const)).map(([index, field]) => ({ _tag: 'EmptyTarget' as const, index, field })),
    fc.tuple(fc.nat(20), fc.oneof(requestString, foreignText)).map(([index, path]) => ({ _tag: 'SkillPathNotAbsolute' as const, index, path })),
  ).map((reason) => ({ _tag: 'InvalidComposerContent' as const, reason })),
  fc.nat(64).map((limit) => ({ _tag: 'QueueFull' as const, limit })),
  fc.constantFrom('NamesSkillsPluginsOrApps' as const, 'ChangesSettings' as const).map((tag) => ({ _tag: 'NotSteerable' as const, reason: { _tag: tag } })),
);

/** Every error variant of every area, with the request's strings and the foreign texts that went into it. */
const hostError: fc.Arbitrary<HostError> = fc.oneof(
  runtimeFault.map((error) => ({ area: 'runtime' as const, error })),
  taskFault.map((error) => ({ area: 'task' as const, error })),
  fc
    .oneof(
      reason.map((message) => ({ _tag: 'PluginsNotAvailable' as const, message })),
      requestString.map((pluginId) => ({ _tag: 'PluginNotFound' as const, pluginId })),
      reason.map((message) => ({ _tag: 'PluginOperationFailed' as const, message })),
      fc.tuple(fc.oneof(tagWord, foreignText), reason).map(([why, message]) => ({ _tag: 'PackageRefused' as const, reason: why, message })),
    )
    .map((error) => ({ area: 'pluginService' as const, error })),
  managementFault.map((error) => ({ area: 'management' as const, error })),
  marketplaceFault.map((error) => ({ area: 'marketplace' as const, error })),
  accountFault.map((error) => ({ area: 'account' as const, error })),
  fc.tuple(method, reason).map(([m, why]) => ({ area: 'settings' as const, error: { _tag: 'SettingsRequestFailed' as const, method: m, reason: why } })),
  reason.map((why) => ({ area: 'inventory' as const, error: { _tag: 'InventoryUnreadable', reason: why } })),
  fc.constantFrom('SkillNotFound', 'SkillUnreadable').map((_tag) => ({ area: 'skillRead' as const, error: { _tag } })),
  fc
    .oneof(
      fc.constantFrom('marketplaces' as const, 'connectorAuthorization' as const).map((service) => ({ _tag: 'NotAvailable' as const, service })),
      requestString.map((sessionId) => ({ _tag: 'AuthSessionNotFound' as const, sessionId })),
    )
    .map((error) => ({ area: 'unavailable' as const, error })),
  fc
    .oneof(fc.constant({ _tag: 'NoSupervisionModel' as const }), runtimeFault.map((error) => ({ _tag: 'InspectionFailed' as const, error })))
    .map((error) => ({ area: 'inspection' as const, error })),
  fc
    .tuple(fc.constantFrom('ConnectorNotFound' as const, 'RecoveryCancelled' as const, 'RecoveryFailed' as const, 'RecoveryObsolete' as const), requestString, requestString, reason)
    // The library's error carries the request's plugin and connector and its own message; none may be shown.
    .map(([_tag, pluginKey, connectorSlug, message]) => ({ area: 'connectorRecovery' as const, error: { _tag, pluginKey, connectorSlug, message } })),
  sendFault.map((error) => ({ area: 'send' as const, error })),
);

/** Every string inside `value` (the request's and the foreign ones alike). */
const stringsIn = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : typeof value === 'object' && value !== null ? Object.values(value).flatMap(stringsIn) : [];

/** A path separator sequence: `/x/` or `\x\` after a non-word character, a drive letter path, a home path. */
const PATH = /(^|[^A-Za-z0-9_-])\/[^\s/]+\/|\\[^\s\\]*\\|[A-Za-z]:[\\/]|~\/|\\\\/;

/** The tags the docs' error table lists for each code. */
function documentedTags(): ReadonlyMap<number, ReadonlyArray<string>> {
  const doc = readFileSync(new URL('../../../docs/host-protocol.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Error codes'));
  const table = section.slice(0, section.indexOf('\n## ', 5));
  const rows = new Map<number, string[]>();
  for (const line of table.split('\n')) {
    const cells = /^\| (-\d+) \| (.*) \|$/.exec(line);
    if (cells === null) continue;
    rows.set(Number(cells[1]), [...(cells[2] ?? '').matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1] ?? ''));
  }
  return rows;
}

describe('hostFailure', () => {
  const documented = documentedTags();

  it('never shows a path, a string of the request, or Codex’s or the OS’s own text', () => {
    fc.assert(
      fc.property(hostError, (error) => {
        const { message } = hostFailure(error);
        expect(message).not.toMatch(PATH);
        for (const text of stringsIn(error.error)) {
          // A category of a closed set may be named (an errno code is turned into words); everything else is withheld.
          if (text.startsWith('\u00ab') || categoryText(text) === null) expect(message).not.toContain(text);
        }
        expect(message).not.toContain('\u00ab');
        expect(message).not.toMatch(/os error|no space left|ENOSPC|config\.toml|auth\.json/i);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers with the code the docs’ error table lists for the tag, and data that is HostErrorData', () => {
    fc.assert(
      fc.property(hostError, (error) => {
        const failure = hostFailure(error);
        expect(Object.values(HostErrorCode)).toContain(failure.code);
        expect(documented.get(failure.code), `the docs list ${failure.tag} under ${failure.code}`).toContain(failure.tag);
        const data = hostErrorData(failure);
        expect(E.isRight(HostErrorData.decode(data))).toBe(true);
        expect(data.tag).toBe(failure.tag);
      }),
      { numRuns: 2000 },
    );
  });

  it('a message does not depend on the request’s strings', () => {
    fc.assert(
      fc.property(taskFault, requestString, (error, other) => {
        const swapped = 'taskId' in error ? { ...error, taskId: other, ...('routeId' in error ? { routeId: other } : {}) } : error;
        expect(hostFailure({ area: 'task', error: swapped }).message).toBe(hostFailure({ area: 'task', error }).message);
      }),
    );
  });

  it('a refused send is -32003 with its own tag, and its message depends on no string the refusal carries', () => {
    fc.assert(
      fc.property(sendFault, requestString, (error, other) => {
        const failure = hostFailure({ area: 'send', error });
        expect(failure).toMatchObject({ code: HostErrorCode.SendBlocked, tag: error._tag });
        expect(failure.retryable).toBeUndefined();
        const swap = (value: unknown): unknown =>
          typeof value === 'string' && value.startsWith('\u00ab') ? other : Array.isArray(value) ? value.map(swap) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === 'message' ? other : swap(inner)])) : value;
        expect(hostFailure({ area: 'send', error: swap(error) as SendFault }).message).toBe(failure.message);
      }),
    );
  });

  it('a refused send says what to do, and keeps the limit of a full queue', () => {
    expect(hostFailure({ area: 'send', error: { _tag: 'QueueFull', limit: 16 } })).toEqual({
      code: HostErrorCode.SendBlocked,
      tag: 'QueueFull',
      message: '16 messages of this task already wait for its running turn; wait for it or stop the task',
    });
    expect(hostFailure({ area: 'send', error: { _tag: 'ModelUnavailable', available: ['gpt-6.2-sol'] } }).message).toBe(
      'the model saved with the task is not available; choose a model that models/list lists and send again with it as modelSelection',
    );
    expect(hostFailure({ area: 'send', error: { _tag: 'NoDefaultModel', available: [] } }).message).toBe(
      'the task has no saved model and Codex marks none as the default; no model is available right now; send again once models/list lists one',
    );
    expect(hostFailure({ area: 'send', error: { _tag: 'InvalidComposerContent', reason: { _tag: 'SkillPathNotAbsolute' } } }).message).toBe(
      'the message has an invalid mention (SkillPathNotAbsolute); choose the mention again in the composer or remove it, then send again',
    );
    expect(hostFailure({ area: 'send', error: { _tag: 'NotSteerable', reason: { _tag: 'NamesSkillsPluginsOrApps' } } })).toEqual({
      code: HostErrorCode.SendBlocked,
      tag: 'NotSteerable',
      message: 'this message cannot join the running turn: it names skills, plugins or apps, which Codex applies only when a turn starts; send it again with delivery queue',
    });
    expect(hostFailure({ area: 'send', error: { _tag: 'NotSteerable', reason: { _tag: 'ChangesSettings' } } })).toEqual({
      code: HostErrorCode.SendBlocked,
      tag: 'NotSteerable',
      message: 'this message cannot join the running turn: it changes the model or the permission mode, which only a new turn takes; send it again with delivery queue',
    });
  });

  it('a full disk is retryable wherever the failure is known to be one', () => {
    expect(hostFailure({ area: 'marketplace', error: { _tag: 'PreferencesUnwritable', reason: 'ENOSPC' } })).toEqual({
      code: HostErrorCode.InternalError,
      tag: 'PreferencesUnwritable',
      retryable: true,
      message: 'the marketplace order could not be saved (the disk is full); nothing was changed',
    });
    expect(hostFailure({ area: 'account', error: { _tag: 'Accounts', error: { _tag: 'FileSystemError', operation: 'write', code: 'EDQUOT' } } })).toMatchObject({ code: HostErrorCode.AccountFailed, tag: 'Accounts', retryable: true });
    expect(runtimeFailure({ _tag: 'RequestFailed', method: 'config/read', reason: 'failed to load /home/ada/.codex/config.toml' })).toEqual({ code: HostErrorCode.RuntimeFailed, tag: 'RequestFailed', message: 'Codex could not complete config/read' });
  });
});
