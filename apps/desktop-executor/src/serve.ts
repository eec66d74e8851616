/**
 * `node dist/serve.js --stdio | --ws`: the desktop executor serving its host over JSON-RPC (see
 * docs/host-protocol.md). With `--stdio` the host talks on stdin/stdout; with `--ws` the executor
 * listens on 127.0.0.1 and prints `{"port":…,"token":…}` on one stdout line; with `--ui` it also serves
 * the web host's page there and the line carries its `url`, with the token in the fragment (never sent
 * in a request). The log goes to stderr.
 * `--print-schema` / `--print-openrpc` print the host protocol's JSON Schema or OpenRPC document (the files
 * committed in `libs/host-protocol/schema/`) and exit 0: nothing starts, and of the rest only the protocol
 * library is loaded.
 * A second executor on the same executor home exits at once with code 3. `WEWORK_EXECUTOR_RESTART_BACKOFF_MS`
 * sets a constant app-server restart backoff (see `runtime/RestartBackoff.ts`). On Node 22.1+ every module
 * past this entry (its arguments' parser and the compile cache's switch) uses Node's compile cache in
 * `<executor home>/cache/node-compile` (`runtime/CompileCache.ts`).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { parseServeInvocation, SERVE_USAGE } from './host/ServeArguments.js';
import { compileCacheLogEntry, enableCompileCacheIn } from './runtime/CompileCache.js';
import type { UiBundle } from './host/StaticUi.js';

const invocation = parseServeInvocation(process.argv.slice(2));
if (E.isLeft(invocation)) {
  process.stderr.write(`${invocation.left}\n`);
  process.exit(2);
}
if (invocation.right._tag === 'Help') {
  process.stdout.write(`${SERVE_USAGE}\n`);
  process.exit(0);
}
if (invocation.right._tag === 'Version') {
  process.stdout.write(`${(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version}\n`);
  process.exit(0);
}
if (invocation.right._tag === 'PrintDocument') {
  // Nothing starts and no home is touched; the protocol library is the one module loaded for it.
  const { hostProtocolOpenRpc, hostProtocolSchema } = await import('@wework/host-protocol');
  const document = invocation.right.document === 'openRpc' ? hostProtocolOpenRpc() : hostProtocolSchema();
  if (E.isLeft(document)) {
    process.stderr.write(`The host protocol cannot be described: ${JSON.stringify(document.left)}\n`);
    process.exit(1);
  }
  // The document is large: exit once it is written, as a pipe may take it in parts.
  await new Promise<void>((done) => process.stdout.write(`${JSON.stringify(document.right, null, 2)}\n`, () => done()));
  process.exit(0);
}
const args = invocation.right.args;
const userHome = homedir();
const executorHome = resolve(args.executorHome ?? process.env['WEWORK_EXECUTOR_HOME'] ?? join(userHome, '.wework', 'executor'));
// Everything past this entry loads with Node's compile cache where Node has one (22.1+), so a later start
// does not compile it again; the home is created private first, as the lock would. Never stops the start.
const compileCache = enableCompileCacheIn(executorHome);
const [{ streamLog }, { launchExecutor }, { HOME_LOCKED_EXIT_CODE }, { DEFAULT_MIGRATION_CHOICE }] = await Promise.all([
  import('@wework/ports/node'),
  import('./runtime/ExecutorLaunch.js'),
  import('./home/ExecutorHomeLock.js'),
  import('@wework/codex-home'),
]);
const log = streamLog(process.stderr, { format: args.logFormat });
log(compileCacheLogEntry(compileCache, process.version));
const codexPath = args.codexPath ?? (process.env['WEWORK_CODEX_PATH'] === '' ? null : (process.env['WEWORK_CODEX_PATH'] ?? null));
const options = {
  executorHome,
  userHome,
  workspace: resolve(args.workspace ?? process.cwd()),
  env: process.env,
  waitForPlugins: args.waitForPlugins,
  bundledPlugins: args.bundledPlugins.map((dir) => resolve(dir)),
  firstStart: { config: args.firstStart.config ?? DEFAULT_MIGRATION_CHOICE.config, remoteApps: args.firstStart.remoteApps ?? DEFAULT_MIGRATION_CHOICE.remoteApps },
  ...(codexPath === null ? {} : { codexPath: resolve(codexPath) }),
  requireSupportedCodex: args.requireSupportedCodex,
  log,
};
// Codex is started first (right after the home is locked and prepared) and boots in its own process
// while the rest of the executor loads; the executor connects to it once loaded. One executor per home:
// a second one on the same home exits at once (the first keeps working).
const launched = await launchExecutor(options);
if (E.isLeft(launched)) {
  process.stderr.write(`The executor did not start: ${launched.left.message}\n`);
  process.exit(launched.left._tag === 'HomeLocked' ? HOME_LOCKED_EXIT_CODE : 1);
}
const [{ startExecutor }, { stdioConnection }] = await Promise.all([import('./host/startExecutor.js'), import('./host/StdioTransport.js')]);
const executor = await startExecutor(options, launched.right);
if (E.isLeft(executor)) {
  process.stderr.write(`The executor did not start: ${executor.left}\n`);
  process.exit(1);
}
const running = executor.right;
let stopping = false;
const stop = async (code: number): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await running.dispose();
  process.exit(code);
};
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));

/** The web host's bundle for `--ui`; a bundle that cannot be loaded stops the start (exit 1). */
async function loadWebHost(): Promise<UiBundle> {
  const { loadUiBundle, webHostBundleDir } = await import('./host/loadUiBundle.js');
  const dir = webHostBundleDir();
  const loaded = dir === null ? null : await loadUiBundle(dir);
  if (loaded === null || loaded._tag === 'Left') {
    process.stderr.write(`The executor did not start: ${loaded === null ? 'the web host is not installed' : loaded.error.message}\n`);
    await running.dispose();
    process.exit(1);
  }
  return loaded.bundle;
}

if (args.transport._tag === 'Stdio') {
  // The host owns the executor: when it closes stdin, the executor ends.
  await running.serve(stdioConnection(process.stdin, process.stdout, log));
  await stop(0);
} else {
  // Loaded only for --ws, so a stdio start does not pay for the WebSocket library.
  const { launchToken, listenWebSocket } = await import('./host/WebSocketTransport.js');
  const { port, allowedOrigins } = args.transport;
  const ui = args.transport.ui ? await loadWebHost() : undefined;
  const endpoint = await listenWebSocket({ port, token: launchToken(), allowedOrigins, log, ...(ui === undefined ? {} : { ui }) }, (connection) => {
    void running.serve(connection);
  });
  const announced = { port: endpoint.port, token: endpoint.token };
  // The protocol library is loaded only for --ui, so no start pays for it before Codex is launched.
  const url = ui === undefined ? null : (await import('@wework/host-protocol')).webHostUrl(endpoint.port, { token: endpoint.token, workspace: options.workspace });
  process.stdout.write(`${JSON.stringify(url === null ? announced : { ...announced, url })}\n`);
  if (url !== null) log({ event: 'web host served', fields: { port: endpoint.port } });
  process.once('SIGTERM', () => void endpoint.close());
}
