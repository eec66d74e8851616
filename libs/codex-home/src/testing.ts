/**
 * `@wework/codex-home/testing`: a port wrapper that injects failures, builders of Codex auth.json files
 * and fast-check arbitraries, so hosts can test their own use of the library (the in-memory file system
 * is `@wework/ports/testing`'s, the config.toml arbitraries `@wework/config-toml/testing`'s). The arbitraries need `fast-check` (an optional peer dependency).
 *
 * Everything here is pure: no IO, no clock; fast-check supplies the randomness.
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { fileSystemError, type FileOperation, type FileSystemPort } from '@wework/ports';
import type { AccountIndex, SavedAccount, SnapshotName } from './AccountIndex.js';
import { encodeBase64Url, utf8 } from './internal/Bytes.js';

/** Which calls of a port {@link failingPort} makes fail. */
export interface InjectedFailure {
  readonly operation: Exclude<FileOperation, 'lstat' | 'stat'> | 'lstat' | 'stat';
  /** Only calls whose (first) path satisfies this fail; all calls of the operation when absent. */
  readonly when?: (path: string) => boolean;
  /** The error code reported (default `EIO`). */
  readonly code?: string;
}

/**
 * `port` with the calls matching `failure` failing before they touch anything — e.g. a `rename`
 * failure simulates a crash between writing a temporary file and replacing the destination.
 */
export const failingPort = (port: FileSystemPort, failure: InjectedFailure): FileSystemPort => {
  const code = failure.code ?? 'EIO';
  const fails = (operation: FileOperation, path: string): boolean => operation === failure.operation && (failure.when?.(path) ?? true);
  const guard =
    <A>(operation: FileOperation, path: string, run: () => Promise<E.Either<ReturnType<typeof fileSystemError>, A>>) =>
    (): Promise<E.Either<ReturnType<typeof fileSystemError>, A>> =>
      fails(operation, path) ? Promise.resolve(E.left(fileSystemError(operation, path, code))) : run();
  return {
    platform: port.platform,
    lstat: (path) => guard('lstat', path, port.lstat(path)),
    stat: (path) => guard('stat', path, port.stat(path)),
    readFile: (path, options) => guard('readFile', path, port.readFile(path, options)),
    readLink: (path) => guard('readLink', path, port.readLink(path)),
    realPath: (path) => guard('realPath', path, port.realPath(path)),
    symlink: (target, path) => guard('symlink', path, port.symlink(target, path)),
    makeDirectory: (path, mode) => guard('makeDirectory', path, port.makeDirectory(path, mode)),
    chmod: (path, mode) => guard('chmod', path, port.chmod(path, mode)),
    createTempFile: (directory, prefix, bytes, mode) => guard('createTempFile', directory, port.createTempFile(directory, prefix, bytes, mode)),
    rename: (from, to) => guard('rename', to, port.rename(from, to)),
    remove: (path) => guard('remove', path, port.remove(path)),
    listDirectory: (path) => guard('listDirectory', path, port.listDirectory(path)),
    createDirectory: (path, mode) => guard('createDirectory', path, port.createDirectory(path, mode)),
    writeFiles: (files) => guard('writeFiles', files[0]?.path ?? '', port.writeFiles(files)),
    writeFileDurable: (file) => guard('writeFileDurable', file.path, port.writeFileDurable(file)),
    copyFile: (from, to, mode) => guard('copyFile', to, port.copyFile(from, to, mode)),
    digestFile: (path) => guard('digestFile', path, port.digestFile(path)),
    publishExclusive: (from, to) => guard('publishExclusive', to, port.publishExclusive(from, to)),
    removeFile: (path) => guard('removeFile', path, port.removeFile(path)),
    removeTree: (path) => guard('removeTree', path, port.removeTree(path)),
    removeEmptyDirectory: (path) => guard('removeEmptyDirectory', path, port.removeEmptyDirectory(path)),
    flush: (roots) => guard('flush', roots[0] ?? '', port.flush(roots)),
    digest: (bytes) => port.digest(bytes),
  };
};

/** An unsigned JWT (`header.payload.signature`) with `payload` as its claims, like Codex's id tokens. */
export const fakeIdToken = (payload: unknown, signature = 'signature'): string =>
  [{ alg: 'RS256', typ: 'JWT' }, payload].map((part) => encodeBase64Url(utf8(JSON.stringify(part)))).join('.') + `.${encodeBase64Url(utf8(signature))}`;

/** The claims of a ChatGPT login, as {@link chatGptAuthJson} puts them into the id token. */
export interface ChatGptLogin {
  readonly email?: string;
  readonly accountId?: string;
  readonly userId?: string;
  readonly planType?: string;
  /** Access and refresh tokens (a canary in tests: they must never show up anywhere). */
  readonly accessToken?: string;
  readonly refreshToken?: string;
  /** A secret put into the id token itself (an extra claim and its signature), so a canary covers the id token too. */
  readonly idTokenSecret?: string;
  /** `last_refresh` of the file; default `2026-01-01T00:00:00Z`. */
  readonly lastRefresh?: string;
}

/** The text of a ChatGPT auth.json as Codex writes it. */
export const chatGptAuthJson = (login: ChatGptLogin): string => {
  const auth: Record<string, string> = {};
  if (login.accountId !== undefined) auth['chatgpt_account_id'] = login.accountId;
  if (login.userId !== undefined) auth['chatgpt_user_id'] = login.userId;
  if (login.planType !== undefined) auth['chatgpt_plan_type'] = login.planType;
  const payload = {
    ...(login.email === undefined ? {} : { email: login.email }),
    'https://api.openai.com/auth': auth,
    exp: 4102444800,
    ...(login.idTokenSecret === undefined ? {} : { secret_note: login.idTokenSecret }),
  };
  const tokens = {
    id_token: fakeIdToken(payload, login.idTokenSecret),
    access_token: login.accessToken ?? 'access-token',
    refresh_token: login.refreshToken ?? 'refresh-token',
    account_id: login.accountId ?? null,
  };
  return `${JSON.stringify({ auth_mode: 'chatgpt', OPENAI_API_KEY: null, tokens, last_refresh: login.lastRefresh ?? '2026-01-01T00:00:00Z' }, null, 2)}\n`;
};

/** The text of an API-key auth.json as Codex writes it. */
export const apiKeyAuthJson = (key: string): string => `${JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: key }, null, 2)}\n`;

const label: fc.Arbitrary<string> = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('acc-1', 'user-1', 'ada@example.com', 'plus', 'pro'));

/** Any ChatGPT login (claims present or not). */
export const chatGptLoginArbitrary: fc.Arbitrary<ChatGptLogin> = fc.record(
  { email: label, accountId: label, userId: label, planType: label, accessToken: fc.string(), refreshToken: fc.string() },
  { requiredKeys: [] },
);

/** Any auth.json text: ChatGPT, API key, or some other JSON. */
export const authJsonArbitrary: fc.Arbitrary<string> = fc.oneof(
  chatGptLoginArbitrary.map(chatGptAuthJson),
  fc.string({ minLength: 1 }).map(apiKeyAuthJson),
  fc.json(),
);

const nullable = (arbitrary: fc.Arbitrary<string>): fc.Arbitrary<string | null> => fc.option(arbitrary, { nil: null });

/** Any saved account entry. */
export const savedAccountArbitrary: fc.Arbitrary<SavedAccount> = fc.record({
  id: fc.string({ minLength: 1 }),
  kind: fc.constantFrom('chatgpt' as const, 'apiKey' as const, 'other' as const),
  authMode: nullable(label),
  email: nullable(label),
  planType: nullable(label),
  chatgptAccountId: nullable(label),
  chatgptUserId: nullable(label),
  snapshot: fc.stringMatching(/^[0-9a-f]{32}$/).map((hex) => `account-${hex}.json` as SnapshotName),
  digest: fc.stringMatching(/^[0-9a-f]{64}$/),
});

/** Any account index (ids unique). */
export const accountIndexArbitrary: fc.Arbitrary<AccountIndex> = fc
  .uniqueArray(savedAccountArbitrary, { selector: (a) => a.id, maxLength: 6 })
  .map((accounts) => ({ version: 1 as const, accounts }));

