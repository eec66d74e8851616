/**
 * A ChatGPT browser login over a real app-server client on in-process streams: the peer answers
 * `account/login/start`; completion comes from a changed auth digest, or the connection's end.
 */
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { collectedAfterGc } from '@wework/test-support';
import { createAppServerClient, type AppServerClient } from '@wework/app-server-client';
import { startLogin, type LoginOptions } from '../src/accounts/ChatGptLogin.js';

let opened: AppServerClient[] = [];
afterEach(() => {
  opened.forEach((client) => client.dispose());
  opened = [];
});

/** A client whose peer answers every `account/login/start` with a new login; `end` closes the peer's output. */
function connected() {
  const fromServer = new PassThrough();
  const toServer = new PassThrough();
  let logins = 0;
  createInterface({ input: toServer }).on('line', (line) => {
    const message = JSON.parse(line) as { id?: number; method?: string };
    if (message.method !== 'account/login/start') return;
    logins += 1;
    fromServer.write(JSON.stringify({ id: message.id, result: { type: 'chatgpt', loginId: `login-${logins}`, authUrl: `https://auth.example/${logins}` } }) + '\n');
  });
  const client = createAppServerClient({ input: fromServer, output: toServer });
  opened.push(client);
  return { client, end: () => fromServer.end() };
}

/** Login options whose auth digest changes once `signIn` is called. */
function signingIn(client: AppServerClient): { readonly options: LoginOptions; readonly signIn: () => void } {
  let digest: string | null = 'before';
  return { options: { client, authDigest: async () => digest, timeoutMs: 60_000, pollMs: 5 }, signIn: () => void (digest = 'after') };
}

describe('startLogin', () => {
  it('completes when the auth digest changes', async () => {
    const { client } = connected();
    const { options, signIn } = signingIn(client);
    const login = await startLogin(options);
    if (E.isLeft(login)) throw new Error(login.left._tag);
    expect(login.right.authUrl).toBe('https://auth.example/1');
    signIn();
    expect(await login.right.completion).toEqual(E.right(undefined));
  });

  it('fails when the app-server connection ends under it', async () => {
    const { client, end } = connected();
    const login = await startLogin(signingIn(client).options);
    if (E.isLeft(login)) throw new Error(login.left._tag);
    end();
    expect(await login.right.completion).toEqual(E.left({ _tag: 'LoginFailed', reason: 'the app-server connection closed' }));
  });

  it('keeps nothing of a finished login reachable from the client that stays open', async () => {
    const { client } = connected();
    /** Runs one login to its completion; only a weak reference to its options leaves this function. */
    const finishLogin = async (): Promise<WeakRef<object>> => {
      const { options, signIn } = signingIn(client);
      const login = await startLogin(options);
      if (E.isLeft(login)) throw new Error(login.left._tag);
      signIn();
      if (E.isLeft(await login.right.completion)) throw new Error('the login did not complete');
      return new WeakRef(options);
    };
    const finished = [await finishLogin(), await finishLogin(), await finishLogin()];
    expect(client.terminalError).toBeUndefined();
    expect(await collectedAfterGc(finished)).toEqual([true, true, true]);
  });
});
