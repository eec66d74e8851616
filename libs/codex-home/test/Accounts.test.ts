import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  checkSwitchAllowed,
  finishAddAccount,
  listAccounts,
  loadAccountIndex,
  loginCompleted,
  readAccountIndex,
  saveActiveAccount,
  startAddAccount,
  switchAccount,
} from '../src/index.js';
import { apiKeyAuthJson, chatGptAuthJson, failingPort } from '../src/testing.js';
import { MemoryFileSystem } from '@wework/ports/testing';
import { CANARY, leftOf, rightOf, testLayout } from './support.js';

const layout = testLayout();
const idle = { activeTurns: 0, pendingRequests: 0 };
const ada = chatGptAuthJson({ email: 'ada@example.com', accountId: 'acc-1', userId: 'user-1', planType: 'plus', accessToken: CANARY, refreshToken: CANARY });
const bob = chatGptAuthJson({ email: 'bob@example.com', accountId: 'acc-2', userId: 'user-2', planType: 'pro', accessToken: `${CANARY}-bob` });
const key = apiKeyAuthJson(`${CANARY}-key`);

const homeWith = (auth?: string): MemoryFileSystem => {
  const fs = new MemoryFileSystem().addDirectory(layout.home, 0o700);
  if (auth !== undefined) fs.addFile(layout.authFile, auth, 0o600);
  return fs;
};

describe('checkSwitchAllowed', () => {
  it('allows a switch only when nothing is active', () => {
    expect(checkSwitchAllowed(idle)).toEqual(E.right(idle));
    expect(checkSwitchAllowed({ activeTurns: 1, pendingRequests: 0 })).toEqual(E.left({ _tag: 'SwitchWhileBusy', activeTurns: 1, pendingRequests: 0 }));
    expect(checkSwitchAllowed({ activeTurns: 0, pendingRequests: 2 })._tag).toBe('Left');
  });
});

describe('loginCompleted', () => {
  it('is true only when a file appeared or changed', () => {
    expect(loginCompleted(null, null)).toBe(false);
    expect(loginCompleted('a', 'a')).toBe(false);
    expect(loginCompleted('a', null)).toBe(false);
    expect(loginCompleted(null, 'a')).toBe(true);
    expect(loginCompleted('a', 'b')).toBe(true);
  });
});

describe('listing accounts', () => {
  it('lists nothing on a fresh home and does not create the profiles directory', async () => {
    const fs = homeWith();
    expect(await rightOf(listAccounts(fs, layout))).toEqual({ accounts: [], activeAccountId: null, activeAuth: 'absent', indexRepaired: false });
    expect(fs.entryAt(layout.profilesDirectory)).toBeUndefined();
  });

  it('lists the active account even before it is saved', async () => {
    const list = await rightOf(listAccounts(homeWith(ada), layout));
    expect(list.accounts).toEqual([
      { id: 'chatgpt:acc-1:user-1', kind: 'chatgpt', authMode: 'chatgpt', email: 'ada@example.com', planType: 'plus', chatgptAccountId: 'acc-1', chatgptUserId: 'user-1', active: true, saved: false },
    ]);
  });

  it('reports an unreadable auth.json without failing', async () => {
    const list = await rightOf(listAccounts(homeWith('not json'), layout));
    expect(list).toMatchObject({ accounts: [], activeAccountId: null, activeAuth: 'unreadable' });
  });
});

describe('Add account', () => {
  it('saves the current account, then the new one after the login, and lists both', async () => {
    const fs = homeWith(ada);
    const started = await rightOf(startAddAccount(fs, layout));
    expect(started.previous?.account.id).toBe('chatgpt:acc-1:user-1');
    expect(started.previous?.snapshot).toBe('new');
    expect(await rightOf(finishAddAccount(fs, layout, started))).toEqual({ _tag: 'LoginNotCompleted' });

    fs.addFile(layout.authFile, bob, 0o600); // what account/login/start writes
    const finished = await rightOf(finishAddAccount(fs, layout, started));
    expect(finished).toMatchObject({ _tag: 'Added', account: { id: 'chatgpt:acc-2:user-2', email: 'bob@example.com' }, snapshot: 'new' });

    const list = await rightOf(listAccounts(fs, layout));
    expect(list.accounts.map((a) => [a.email, a.active, a.saved])).toEqual([
      ['ada@example.com', false, true],
      ['bob@example.com', true, true],
    ]);
    expect(fs.entryAt(layout.profilesDirectory)).toEqual({ kind: 'directory', mode: 0o700 });
    for (const [path, entry] of fs.tree(layout.profilesDirectory)) {
      if (entry.kind === 'file') expect([path, entry.mode]).toEqual([path, 0o600]);
    }
  });

  it('starts from a home without auth', async () => {
    const fs = homeWith();
    const started = await rightOf(startAddAccount(fs, layout));
    expect(started).toEqual({ previous: null, authDigestBefore: null });
    fs.addFile(layout.authFile, key, 0o600);
    expect(await rightOf(finishAddAccount(fs, layout, started))).toMatchObject({ _tag: 'Added', account: { kind: 'apiKey' } });
  });

  it('saving the same auth twice leaves one unchanged snapshot', async () => {
    const fs = homeWith(ada);
    expect((await rightOf(saveActiveAccount(fs, layout))).snapshot).toBe('new');
    expect((await rightOf(saveActiveAccount(fs, layout))).snapshot).toBe('unchanged');
    fs.addFile(layout.authFile, chatGptAuthJson({ email: 'ada@example.com', accountId: 'acc-1', userId: 'user-1', accessToken: 'refreshed' }), 0o600);
    expect((await rightOf(saveActiveAccount(fs, layout))).snapshot).toBe('updated');
    expect((await rightOf(readAccountIndex(fs, layout))).accounts).toHaveLength(1);
  });

  it('has nothing to save without auth.json', async () => {
    expect(await leftOf(saveActiveAccount(homeWith(), layout))).toEqual({ _tag: 'NoActiveAuth', path: layout.authFile });
  });
});

const twoAccounts = async (): Promise<MemoryFileSystem> => {
  const fs = homeWith(ada);
  await rightOf(saveActiveAccount(fs, layout));
  fs.addFile(layout.authFile, bob, 0o600);
  await rightOf(saveActiveAccount(fs, layout));
  return fs;
};

describe('Switch', () => {
  it('replaces only the active auth.json with the chosen snapshot', async () => {
    const fs = await twoAccounts();
    const outcome = await rightOf(switchAccount(fs, layout, { accountId: 'chatgpt:acc-1:user-1', activity: idle }));
    expect(outcome).toMatchObject({ _tag: 'Switched', account: { email: 'ada@example.com' }, wroteThroughLinkTo: null });
    expect(fs.textAt(layout.authFile)).toBe(ada);
    expect(fs.entryAt(layout.authFile)).toMatchObject({ kind: 'file', mode: 0o600 });
    expect((await rightOf(listAccounts(fs, layout))).activeAccountId).toBe('chatgpt:acc-1:user-1');
  });

  it('saves a new current account before replacing it', async () => {
    const fs = await twoAccounts();
    fs.addFile(layout.authFile, key, 0o600); // an API key set up outside the account list
    await rightOf(switchAccount(fs, layout, { accountId: 'chatgpt:acc-2:user-2', activity: idle }));
    const list = await rightOf(listAccounts(fs, layout));
    expect(list.accounts.map((a) => a.kind)).toEqual(['chatgpt', 'chatgpt', 'apiKey']);
    expect(list.activeAccountId).toBe('chatgpt:acc-2:user-2');
  });

  it('keeps an unreadable current auth.json as a backup', async () => {
    const fs = await twoAccounts();
    fs.addFile(layout.authFile, `{"broken": "${CANARY}"`, 0o600);
    await rightOf(switchAccount(fs, layout, { accountId: 'chatgpt:acc-1:user-1', activity: idle }));
    const backups = fs.tree(layout.profilesDirectory).filter(([path]) => path.includes('unreadable-auth-'));
    expect(backups).toHaveLength(1);
  });

  it('does nothing when the account is already active', async () => {
    const fs = await twoAccounts();
    expect(await rightOf(switchAccount(fs, layout, { accountId: 'chatgpt:acc-2:user-2', activity: idle }))).toMatchObject({ _tag: 'AlreadyActive' });
    expect(fs.textAt(layout.authFile)).toBe(bob);
  });

  it('is refused while a turn or a request is active, before touching anything', async () => {
    const fs = await twoAccounts();
    const before = fs.tree('/');
    expect(await leftOf(switchAccount(fs, layout, { accountId: 'chatgpt:acc-1:user-1', activity: { activeTurns: 1, pendingRequests: 0 } }))).toEqual({
      _tag: 'SwitchWhileBusy',
      activeTurns: 1,
      pendingRequests: 0,
    });
    expect(fs.tree('/')).toEqual(before);
  });

  it('refuses an unknown account', async () => {
    expect(await leftOf(switchAccount(await twoAccounts(), layout, { accountId: 'chatgpt:nobody:-', activity: idle }))).toEqual({
      _tag: 'UnknownAccount',
      accountId: 'chatgpt:nobody:-',
    });
  });

  it('writes the target of a link to the native home and keeps the link', async () => {
    const fs = new MemoryFileSystem().addDirectory(layout.home, 0o700).addFile(layout.nativeAuthFile, ada, 0o600).addSymlink(layout.nativeAuthFile, layout.authFile);
    await rightOf(saveActiveAccount(fs, layout));
    fs.addFile(layout.nativeAuthFile, bob, 0o600); // e.g. a login written through the link
    const outcome = await rightOf(switchAccount(fs, layout, { accountId: 'chatgpt:acc-1:user-1', activity: idle }));
    expect(outcome).toMatchObject({ _tag: 'Switched', wroteThroughLinkTo: layout.nativeAuthFile });
    expect(fs.entryAt(layout.authFile)).toEqual({ kind: 'symlink', target: layout.nativeAuthFile });
    expect(fs.textAt(layout.nativeAuthFile)).toBe(ada);
    expect(fs.tree(layout.nativeHome).map(([path]) => path)).toEqual([layout.nativeHome, layout.nativeAuthFile]); // no temporary file left
    expect((await rightOf(listAccounts(fs, layout))).accounts.map((a) => a.email)).toEqual(['ada@example.com', 'bob@example.com']);
  });

  it('leaves the active auth.json intact when the final rename fails (a crash before the replace)', async () => {
    const fs = await twoAccounts();
    const crashing = failingPort(fs, { operation: 'rename', when: (path) => path === layout.authFile });
    const error = await leftOf(switchAccount(crashing, layout, { accountId: 'chatgpt:acc-1:user-1', activity: idle }));
    expect(error).toEqual({ _tag: 'FileSystemError', operation: 'rename', path: layout.authFile, code: 'EIO' });
    expect(fs.textAt(layout.authFile)).toBe(bob);
    expect(fs.tree(layout.home).filter(([path]) => path.endsWith('.tmp'))).toEqual([]);
  });
});

describe('a full disk while saving an account', () => {
  it('an add whose index entry cannot be written leaves no snapshot behind, and the list answers as before', async () => {
    const fs = homeWith(ada);
    await rightOf(saveActiveAccount(fs, layout));
    const before = fs.tree(layout.profilesDirectory);
    fs.addFile(layout.authFile, bob, 0o600);
    const full = failingPort(fs, { operation: 'rename', code: 'ENOSPC', when: (path) => path === layout.accountIndexFile });
    expect(await leftOf(saveActiveAccount(full, layout))).toMatchObject({ _tag: 'FileSystemError', code: 'ENOSPC' });
    expect(fs.tree(layout.profilesDirectory)).toEqual(before);
    const listed = await rightOf(listAccounts(full, layout));
    expect(listed.accounts.filter((a) => a.saved).map((a) => a.email)).toEqual(['ada@example.com']);
  });

  it('the list tolerates a snapshot without an index entry (an interrupted add): adopted and reported, also when the repair cannot be written', async () => {
    const fs = await twoAccounts();
    fs.addFile(layout.accountIndexFile, JSON.stringify({ version: 1, accounts: [] }), 0o600);
    const full = failingPort(fs, { operation: 'rename', code: 'ENOSPC', when: (path) => path === layout.accountIndexFile });
    const listed = await rightOf(listAccounts(full, layout));
    expect(listed.indexRepaired).toBe(true);
    expect(listed.accounts.filter((a) => a.saved).map((a) => a.email).sort()).toEqual(['ada@example.com', 'bob@example.com']);
    // Once space is back, the next list writes the repair.
    expect((await rightOf(listAccounts(fs, layout))).indexRepaired).toBe(true);
    expect((await rightOf(listAccounts(fs, layout))).indexRepaired).toBe(false);
  });
});

describe('the index and the snapshots', () => {
  it('rebuilds a corrupt index from the snapshots and never loses one', async () => {
    const fs = await twoAccounts();
    const snapshots = fs.tree(layout.profilesDirectory).filter(([path]) => /account-[0-9a-f]{32}\.json$/.test(path));
    fs.addFile(layout.accountIndexFile, '{"version": 1, "accounts": [', 0o600);
    expect(await leftOf(readAccountIndex(fs, layout))).toEqual({ _tag: 'CorruptAccountIndex', path: layout.accountIndexFile });
    const loaded = await rightOf(loadAccountIndex(fs, layout));
    expect(loaded.repaired).toBe(true);
    expect(loaded.index.accounts.map((a) => a.email).sort()).toEqual(['ada@example.com', 'bob@example.com']);
    expect(fs.tree(layout.profilesDirectory).filter(([path]) => /account-[0-9a-f]{32}\.json$/.test(path))).toEqual(snapshots);
    expect((await rightOf(readAccountIndex(fs, layout))).accounts).toHaveLength(2);
  });

  it('drops entries whose snapshot is gone', async () => {
    const fs = await twoAccounts();
    const index = await rightOf(readAccountIndex(fs, layout));
    await rightOf(fs.remove(`${layout.profilesDirectory}/${index.accounts[0]?.snapshot ?? ''}`));
    const list = await rightOf(listAccounts(fs, layout));
    expect(list.indexRepaired).toBe(true);
    expect(list.accounts.map((a) => a.email)).toEqual(['bob@example.com']);
  });

  it('refuses a profiles directory that is a symbolic link', async () => {
    const fs = homeWith(ada).addDirectory('/elsewhere').addSymlink('/elsewhere', layout.profilesDirectory);
    expect(await leftOf(saveActiveAccount(fs, layout))).toEqual({ _tag: 'ProfilesDirectoryRefused', path: layout.profilesDirectory, reason: 'symlink' });
    expect(await leftOf(listAccounts(fs, layout))).toMatchObject({ _tag: 'ProfilesDirectoryRefused' });
    expect(fs.tree('/elsewhere')).toEqual([['/elsewhere', { kind: 'directory', mode: 0o755 }]]);
  });

  it('never follows a link planted at a snapshot path', async () => {
    const fs = await twoAccounts();
    const index = await rightOf(readAccountIndex(fs, layout));
    const adaSnapshot = `${layout.profilesDirectory}/${index.accounts[0]?.snapshot ?? ''}`;
    fs.addFile('/outside/secret.json', 'outside content', 0o644).addSymlink('/outside/secret.json', adaSnapshot);
    // switching to the planted account is refused: the link is not read
    expect(await leftOf(switchAccount(fs, layout, { accountId: 'chatgpt:acc-1:user-1', activity: idle }))).toEqual({ _tag: 'SnapshotRefused', path: adaSnapshot });
    fs.addFile(layout.authFile, ada, 0o600);
    // saving the account replaces the link by a file; the link's target is untouched
    expect((await rightOf(saveActiveAccount(fs, layout))).snapshot).toBe('updated');
    expect(fs.entryAt(adaSnapshot)).toMatchObject({ kind: 'file', mode: 0o600 });
    expect(fs.textAt('/outside/secret.json')).toBe('outside content');
  });

  it('treats a link planted at the index path as a corrupt index', async () => {
    const fs = await twoAccounts();
    fs.addFile('/outside/index.json', '{"version":1,"accounts":[]}').addSymlink('/outside/index.json', layout.accountIndexFile);
    expect(await leftOf(readAccountIndex(fs, layout))).toMatchObject({ _tag: 'CorruptAccountIndex' });
    expect((await rightOf(loadAccountIndex(fs, layout))).index.accounts).toHaveLength(2);
    expect(fs.entryAt(layout.accountIndexFile)?.kind).toBe('file');
    expect(fs.textAt('/outside/index.json')).toBe('{"version":1,"accounts":[]}');
  });
});

describe('tokens never leak', () => {
  it('no value or error of the account programs contains a token', async () => {
    const fs = await twoAccounts();
    const results: unknown[] = [
      await listAccounts(fs, layout)(),
      await saveActiveAccount(fs, layout)(),
      await startAddAccount(fs, layout)(),
      await switchAccount(fs, layout, { accountId: 'chatgpt:acc-1:user-1', activity: idle })(),
      await switchAccount(failingPort(fs, { operation: 'rename' }), layout, { accountId: 'chatgpt:acc-2:user-2', activity: idle })(),
      await switchAccount(fs, layout, { accountId: 'nobody', activity: { activeTurns: 3, pendingRequests: 1 } })(),
      await readAccountIndex(fs, layout)(),
    ];
    fs.addFile(layout.authFile, key, 0o600);
    results.push(await listAccounts(fs, layout)(), await saveActiveAccount(fs, layout)());
    for (const result of results) {
      expect(JSON.stringify(result)).not.toContain(CANARY);
      expect(String(result)).not.toContain(CANARY);
    }
  });
});
