/**
 * Accounts on the real app-server, offline: "Add account" starts Codex's browser login and cancels it;
 * a completed login (the test writes the new auth.json, as the browser step would) lists both
 * accounts; "Switch" replaces auth.json atomically, keeps the link to the native home, restarts the
 * app-server, and is refused while a turn runs. No secret reaches any log, error or listing.
 */
import { lstat, mkdtemp, mkdir, readFile, readdir, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import * as T from 'fp-ts/lib/Task.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CodexHome, FirstStart } from '@wework/codex-home';
import { nodeCodexHome } from '@wework/codex-home/node';
import { hang, respond, say } from '@wework/scripted-model';
import { formatCodexConfigError, startScriptedModel, withMachineLock, writeScriptedModelConfig } from '@wework/scripted-model/node';
import { accountService, describeAccountServiceError, type AccountService } from '../src/accounts/AccountService.js';
import { describeHomePreparationError, prepareCodexHome } from '../src/home/prepareCodexHome.js';
import { formatLogFields, type LogEntry } from '@wework/ports';
import { describeRuntimeError } from '../src/runtime/LocalRuntime.js';
import { startRuntimeSupervisor, type RuntimeSupervisor } from '../src/runtime/RuntimeSupervisor.js';
import { chatgptAuthJson, TOKEN_CANARY, until } from '@wework/test-support';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ADA = { email: 'ada@example.com', accountId: 'acc-ada', userId: 'user-ada' };
const GRACE = { email: 'grace@example.com', accountId: 'acc-grace', userId: 'user-grace', plan: 'pro' };

interface AccountsBox {
  readonly home: CodexHome;
  readonly nativeAuth: string;
  readonly runtime: RuntimeSupervisor;
  readonly accounts: AccountService;
  readonly log: LogEntry[];
  readonly questions: FirstStart[];
}

/** A user with a native ~/.codex (signed in as Ada), a Wework home prepared from it, and a running executor. */
async function accountsBox(): Promise<AccountsBox> {
  const root = await mkdtemp(join(tmpdir(), 'executor-accounts-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const userHome = join(root, 'user');
  const workspace = join(root, 'workspace');
  await mkdir(join(userHome, '.codex'), { recursive: true });
  await mkdir(workspace, { recursive: true });
  const nativeAuth = join(userHome, '.codex', 'auth.json');
  await writeFile(nativeAuth, chatgptAuthJson(ADA), { mode: 0o600 });
  const resolved = nodeCodexHome({ executorHome: join(root, 'executor'), userHome, env: {} });
  if (E.isLeft(resolved)) throw new Error(resolved.left._tag);
  const home = resolved.right;
  const log: LogEntry[] = [];
  const questions: FirstStart[] = [];
  const prepared = await prepareCodexHome(
    home,
    (question) => {
      questions.push(question);
      return T.of({ config: 'fresh', remoteApps: false });
    },
    (entry) => log.push(entry),
  );
  if (E.isLeft(prepared)) throw new Error(describeHomePreparationError(prepared.left));
  const model = await startScriptedModel({ script: [hang(), respond(say('done'))] });
  cleanups.push(() => model.close());
  // The scripted model as provider, merged into the prepared config.
  const written = await writeScriptedModelConfig(home.layout.home, { baseUrl: model.url });
  if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
  const runtime = await startRuntimeSupervisor({ codexHome: home.layout.home, home: userHome, workspace, env: process.env, pluginNames: [], log: (entry) => log.push(entry) });
  if (E.isLeft(runtime)) throw new Error(describeRuntimeError(runtime.left));
  cleanups.push(() => runtime.right.dispose());
  const accounts = accountService({ home, runtime: runtime.right, log: (entry) => log.push(entry), loginPollMs: 50 });
  return { home, nativeAuth, runtime: runtime.right, accounts, log, questions };
}

const settle = <A>(promise: Promise<A>, ms: number): Promise<A | 'pending'> =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);

describe('accounts on the real app-server', () => {
  it('asks the first-start question, links the native login, and lists it from its claims', async () => {
    const box = await accountsBox();
    expect(box.questions.map((question) => question._tag)).toEqual(['AskMigration']);
    expect((await lstat(box.home.layout.authFile)).isSymbolicLink()).toBe(true);
    expect(await readlink(box.home.layout.authFile)).toBe(box.nativeAuth);
    const listed = await box.accounts.list();
    if (E.isLeft(listed)) throw new Error(describeAccountServiceError(listed.left));
    expect(listed.right.accounts).toMatchObject([{ email: ADA.email, chatgptAccountId: ADA.accountId, planType: 'plus', kind: 'chatgpt', active: true }]);
  });

  it('adds an account through a browser login, cancels a login, and switches accounts with a restart', async () => {
    // Codex's login callback server takes one port per machine: a login started elsewhere would cancel this one.
    await withMachineLock('codex-login', async () => {
      const box = await accountsBox();

      // Add account, then leave the page: the login is cancelled on the app-server.
      const abandoned = await box.accounts.add();
      if (E.isLeft(abandoned)) throw new Error(describeAccountServiceError(abandoned.left));
      expect(new URL(abandoned.right.authUrl).protocol).toBe('https:');
      await abandoned.right.cancel();
      expect(await abandoned.right.completion).toMatchObject({ left: { _tag: 'Login', error: { _tag: 'LoginCancelled' } } });

      // Add account again; the browser step ends with Codex writing Grace's auth.json (through the link).
      const adding = await box.accounts.add();
      if (E.isLeft(adding)) throw new Error(describeAccountServiceError(adding.left));
      expect(await settle(adding.right.completion, 300)).toBe('pending');
      await writeFile(box.home.layout.authFile, chatgptAuthJson(GRACE));
      const added = await adding.right.completion;
      expect(added).toMatchObject({ right: { email: GRACE.email, planType: 'pro' } });

      const listed = await box.accounts.list();
      if (E.isLeft(listed)) throw new Error(describeAccountServiceError(listed.left));
      expect(listed.right.accounts.map((account) => [account.email, account.active, account.saved])).toEqual([
        [ADA.email, false, true],
        [GRACE.email, true, true],
      ]);

      // Switch back to Ada: auth.json's link is kept, its target now holds Ada, and the app-server restarted.
      const pidBefore = box.runtime.current().server.pid;
      const ada = listed.right.accounts.find((account) => account.email === ADA.email);
      const switched = await box.accounts.switchTo(ada?.id ?? '');
      if (E.isLeft(switched)) throw new Error(describeAccountServiceError(switched.left));
      expect(switched.right._tag).toBe('Switched');
      expect((await lstat(box.home.layout.authFile)).isSymbolicLink()).toBe(true);
      expect(await readFile(box.nativeAuth, 'utf8')).toBe(chatgptAuthJson(ADA));
      expect(box.runtime.current().server.pid).not.toBe(pidBefore);
      expect(box.log.map((entry) => entry.event)).toContain('app-server restarted');

      // Private files: snapshots and the index are 0600 in a 0700 directory.
      const profiles = box.home.layout.profilesDirectory;
      expect((await stat(profiles)).mode & 0o777).toBe(0o700);
      for (const name of await readdir(profiles)) expect([name, (await stat(join(profiles, name))).mode & 0o777]).toEqual([name, 0o600]);

      // Nothing the host sees, and no log line, carries a token.
      const seen = [JSON.stringify(listed), JSON.stringify(added), JSON.stringify(switched), ...box.log.map(formatLogFields), box.runtime.current().server.stderrTail()].join('\n');
      expect(seen).not.toContain(TOKEN_CANARY);
    }, { timeoutMs: 150_000 });
  }, 240_000);

  it('refuses to switch while a turn is running, and switches once it has stopped', async () => {
    // Codex's login callback server takes one port per machine: a login started elsewhere would cancel this one.
    await withMachineLock('codex-login', async () => {
      const box = await accountsBox();
      const adding = await box.accounts.add();
      if (E.isLeft(adding)) throw new Error(describeAccountServiceError(adding.left));
      await writeFile(box.home.layout.authFile, chatgptAuthJson(GRACE));
      expect(E.isRight(await adding.right.completion)).toBe(true);
      const listed = await box.accounts.list();
      const ada = E.isRight(listed) ? listed.right.accounts.find((account) => account.email === ADA.email) : undefined;

      const runtime = box.runtime.current();
      const thread = await runtime.startThread({});
      if (E.isLeft(thread)) throw new Error(describeRuntimeError(thread.left));
      const turn = runtime.runTurn(thread.right.threadId, 'this turn hangs');
      // Bounded within the test's 240 s, of which the machine lock may take 150 s.
      await until('the hanging turn to run', () => box.runtime.activity().activeTurns.length > 0, 80_000);

      const refused = await box.accounts.switchTo(ada?.id ?? '');
      expect(refused).toMatchObject({ left: { _tag: 'SwitchWhileBusy' } });
      if (E.isLeft(refused)) expect(describeAccountServiceError(refused.left)).toMatch(/^cannot switch accounts while work is running \(1 turn/);
      expect(await readFile(box.nativeAuth, 'utf8')).toBe(chatgptAuthJson(GRACE));

      await runtime.stopTurn(thread.right.threadId);
      expect(E.isRight(await turn)).toBe(true);
      const switched = await box.accounts.switchTo(ada?.id ?? '');
      expect(switched).toMatchObject({ right: { _tag: 'Switched' } });
      expect(await readFile(box.nativeAuth, 'utf8')).toBe(chatgptAuthJson(ADA));
    }, { timeoutMs: 150_000 });
  }, 240_000);
});
