/**
 * The raw app-server client of the turn benchmarks: the pinned Codex binary spawned as
 * `codex app-server` on a {@link LineClient}, initialized, and driven with plain `thread/start`,
 * `turn/start` → `turn/completed` (and, for the client that keeps the spec's rules,
 * `thread/unsubscribe` and `thread/resume`). No decoding beyond `JSON.parse`.
 */
import { delimiter } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { Methods } from '@wework/codex-protocol';
import { resolveCodexCommand } from '@wework/app-server-client/node';
import { LineClient } from './lineClient.js';

/** Where a side runs: its Codex home, user home and workspace. */
export interface Dirs {
  readonly codexHome: string;
  readonly home: string;
  readonly workspace: string;
}

/** The pinned Codex command (the native binary where it is installed). */
export const codexCommand = (): { readonly command: string; readonly args: ReadonlyArray<string>; readonly pathPrepend: ReadonlyArray<string> } => {
  const codex = resolveCodexCommand();
  if (E.isLeft(codex)) throw new Error('the Codex binary was not found');
  return codex.right;
};

/** The native Codex binary the npm wrapper would start, or '' when the pinned Codex resolves to the wrapper. */
export const nativeCodex = (): string => {
  const codex = codexCommand();
  return codex.args.length === 0 ? codex.command : '';
};

/** The environment Codex runs in for a side: its homes, and the pinned Codex's helpers first on PATH. */
export const codexEnv = (dirs: Dirs): NodeJS.ProcessEnv => ({ ...process.env, CODEX_HOME: dirs.codexHome, HOME: dirs.home, PATH: [...codexCommand().pathPrepend, process.env['PATH'] ?? ''].join(delimiter) });

/** The result of a JSON-RPC answer, or an error naming what failed. */
export const resultOf = (message: { result?: unknown; error?: unknown }, what: string): Record<string, unknown> => {
  if (message.result === undefined) throw new Error(`${what} failed: ${JSON.stringify(message.error ?? null).slice(0, 300)}`);
  return message.result as Record<string, unknown>;
};

/** A raw app-server on a line pipe, initialized. */
export async function rawServer(dirs: Dirs): Promise<LineClient> {
  const codex = codexCommand();
  const client = new LineClient(codex.command, [...codex.args, 'app-server'], codexEnv(dirs), dirs.workspace);
  resultOf(await client.request(Methods.Initialize, { clientInfo: { name: 'bench', title: null, version: '0' }, capabilities: { experimentalApi: true } }), 'initialize');
  client.notify(Methods.Initialized);
  return client;
}

/** Starts a thread (with `extra` params, e.g. a permission profile) and answers its id. */
export async function rawThread(client: LineClient, dirs: Dirs, extra: Record<string, unknown> = {}): Promise<string> {
  const thread = resultOf(await client.request(Methods.ThreadStart, { cwd: dirs.workspace, ...extra }), 'thread/start') as { thread: { id: string } };
  return thread.thread.id;
}

/** One turn: `turn/start` (with `extra` params) until its `turn/completed`. */
export async function rawTurn(client: LineClient, threadId: string, extra: Record<string, unknown> = {}): Promise<void> {
  const completed = client.waitFor((message) => message.method === Methods.TurnCompleted && message.params?.['threadId'] === threadId);
  resultOf(await client.request(Methods.TurnStart, { threadId, input: [{ type: 'text', text: 'hi', text_elements: [] }], ...extra }), 'turn/start');
  await completed;
}
