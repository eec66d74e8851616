/**
 * The example at the top of README.md, kept compiling and passing: the block between the markers
 * below must be the README's first TypeScript block, line for line.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as T from 'fp-ts/lib/Task.js';
import { expect, test } from 'vitest';
import { nodeCodexHome } from '../src/node/index.js';
import { chatGptAuthJson } from '../src/testing.js';

const loginWritesAuthJson = async (path: string): Promise<void> => {
  await writeFile(path, chatGptAuthJson({ email: 'ada@example.com', accountId: 'acc-1', userId: 'user-1', planType: 'plus' }), { mode: 0o600 });
};

test('README example', async () => {
  // --- README example begins ---
  const root = await mkdtemp(join(tmpdir(), 'wework-'));
  const resolved = nodeCodexHome({ executorHome: join(root, 'executor'), userHome: join(root, 'user'), env: {} });
  if (E.isLeft(resolved)) throw new Error(resolved.left._tag); // InvalidHomePath | HomeIsNativeHome
  const home = resolved.right; // home.layout.home === <root>/executor/codex

  // Before spawning `codex app-server` with CODEX_HOME = home.layout.home: create the home, ask the
  // first-start question once (only when ~/.codex exists), link ~/.codex/auth.json, prepare config.toml.
  const prepared = await home.prepareForStart(() => T.of({ config: 'native', remoteApps: true }))();
  // Right({ home: 'Created', firstStart: { _tag: 'Uninitialized' }, authLink: { _tag: 'NoNativeAuth', ... }, config: { _tag: 'Unchanged', ... }, ... })

  // "Add account": snapshot the current account, run account/login/start, then save the new one.
  const started = await home.startAddAccount()();
  if (E.isLeft(started)) throw new Error(started.left._tag);
  await loginWritesAuthJson(home.layout.authFile); // what the app-server's browser login does
  const added = await home.finishAddAccount(started.right)();
  // Right({ _tag: 'Added', account: { id: 'chatgpt:acc-1:user-1', email: 'ada@example.com', planType: 'plus', ... }, snapshot: 'new' })

  const accounts = await home.listAccounts()();
  // Right({ accounts: [{ email: 'ada@example.com', active: true, saved: true, ... }], activeAccountId: 'chatgpt:acc-1:user-1', ... })
  // --- README example ends ---

  expect(prepared).toMatchObject(E.right({ home: 'Created', firstStart: { _tag: 'Uninitialized' }, authLink: { _tag: 'NoNativeAuth' }, config: { _tag: 'Unchanged' } }));
  expect(added).toMatchObject(E.right({ _tag: 'Added', account: { id: 'chatgpt:acc-1:user-1', email: 'ada@example.com', planType: 'plus' }, snapshot: 'new' }));
  expect(accounts).toMatchObject(E.right({ accounts: [{ email: 'ada@example.com', active: true, saved: true }], activeAccountId: 'chatgpt:acc-1:user-1' }));
  await rm(root, { recursive: true, force: true });
});
