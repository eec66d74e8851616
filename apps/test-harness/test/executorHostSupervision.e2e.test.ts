/**
 * Runtime supervision through the desktop executor's host protocol, end to end: the serve entry as a
 * process (its own executor home and HOME, a native ChatGPT login linked), the real app-server, the
 * real forms plugin and the scripted model. The app-server is SIGKILLed while idle and while a plugin
 * form waits for the user: the hosts see `runtime/status` (restarting with the signal, then ready),
 * Codex-backed requests wait meanwhile and answer once it is ready, the waiting send gets a terminal `failed`
 * answer with `transcript/turnCompleted`, the card is dismissed, the next message of the same task
 * completes on its resumed thread with the earlier history, and an account switch works afterwards. A
 * task whose thread never ran a turn (nothing to resume) gets a new thread on its next message; one whose
 * only turn failed is resumed (Codex wrote its rollout).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { callTool, fail, respond, say, userMessages, type RecordedRequest } from '@wework/scripted-model';
import { withMachineLock, type ScriptedModel } from '@wework/scripted-model/node';
import type { HostCard, HostReply, RuntimeStatus } from '@wework/host-protocol';
import { appServerPid, killAppServer } from './support/appServerProcess.js';
import { startHostBox, type HostBox } from './support/executorHostBox.js';
import { chatgptAuthJson, TOKEN_CANARY, until } from '@wework/test-support';

const ADA = { email: 'ada@example.com', accountId: 'acc-ada', userId: 'user-ada' };
/** The restart backoff the executor is started with. */
const RESTART_BACKOFF_MS = 3_000;
const GRACE = { email: 'grace@example.com', accountId: 'acc-grace', userId: 'user-grace', plan: 'pro' };

let box: HostBox;
/** The executor's `auth.json`: a link to the native one. */
const linkedAuth = (): string => join(box.codexHome, 'auth.json');
/** Cards wait for the user until the executor dismisses them. */
const waitingCards = new Map<string, (answer: HostReply) => void>();

beforeAll(async () => {
  const plugin = checkPluginBuilt('forms');
  if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
  box = await startHostBox({
    prefix: 'harness-host-supervision-',
    script: [
      respond(say('First reply.')),
      respond(say('Second reply, after the restart.')),
      respond(callTool('forms', 'choose_strategy')),
      respond(say('Fourth reply, after the mid-turn restart.')),
      respond(say('A reply on a thread started again.')),
      fail(400, 'The model refused this turn.'),
      respond(say('A reply after a failed first turn and a restart.')),
    ],
    mcpServers: { forms: { ...plugin.command, default_tools_approval_mode: 'approve' } },
    waitForPlugins: ['forms'],
    // A constant restart backoff far longer than the requests made while the runtime restarts, so they
    // always see it restarting however loaded the machine is.
    env: { WEWORK_EXECUTOR_RESTART_BACKOFF_MS: String(RESTART_BACKOFF_MS) },
    cards: (card: HostCard) => new Promise<HostReply>((resolve) => waitingCards.set(card.cardId, resolve)),
    prepare: async ({ dirs }) => {
      await mkdir(join(dirs.userHome, '.codex'), { recursive: true });
      await writeFile(join(dirs.userHome, '.codex', 'auth.json'), chatgptAuthJson(ADA), { mode: 0o600 });
    },
  });
  const { host } = box;
  // A card the executor dismisses is settled for the harness too.
  void (async () => {
    for (;;) {
      const dismissed = await host.nextNotification<{ cardId: string }>('card/dismissed', () => true, { timeoutMs: 600_000 }).catch(() => undefined);
      if (dismissed === undefined) return;
      waitingCards.get(dismissed.cardId)?.({ action: 'cancel' });
    }
  })();
}, 120_000);

afterAll(async () => {
  for (const resolve of waitingCards.values()) resolve({ action: 'cancel' });
  await box?.close();
});

const modelTurns = (model: ScriptedModel): ReadonlyArray<RecordedRequest> => model.requests.filter((request) => request.method === 'POST' && request.path.startsWith('/v1/responses'));

const statusOf = (state: RuntimeStatus['state']) => (status: RuntimeStatus) => status.state === state;

describe('runtime supervision through the host protocol', () => {
  it('a SIGKILLed idle app-server: restarting then ready, Codex-backed requests waiting meanwhile, and the task resumes its thread with its history', async () => {
    const { host } = box;
    const created = await host.request('task/create', { taskId: 'task-1', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    if (created._tag === 'Left') throw new Error(`task/create failed: ${created.left.message}`);
    const threadId = created.right.task.threadId;
    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'Message one.' })).toMatchObject({ right: { status: 'completed', threadId } });
    expect(await host.request('executor/info', {})).toMatchObject({ right: { runtime: { state: 'ready', crashes: 0 } } });

    const restarting = host.nextNotification<RuntimeStatus>('runtime/status', statusOf('restarting'));
    const ready = host.nextNotification<RuntimeStatus>('runtime/status', statusOf('ready'));
    const killed = await killAppServer(host.pid);
    expect(await restarting).toMatchObject({ state: 'restarting', signal: 'SIGKILL', exitCode: null, crashes: 1, retryInMs: RESTART_BACKOFF_MS, reason: expect.stringContaining('exited') });
    // Within the backoff, info tells the state, and a request that needs Codex waits for ready, then answers.
    expect(await host.request('executor/info', {})).toMatchObject({ right: { runtime: { state: 'restarting' } } });
    const told: string[] = [];
    const listed = host.request('models/list', {}).then((answer) => {
      told.push('models/list answered');
      return answer;
    });
    void ready.then(() => told.push('ready'));
    const back = await ready;
    expect(await listed).toMatchObject({ right: { models: expect.any(Array) } });
    expect(told).toEqual(['ready', 'models/list answered']);
    expect(back).toMatchObject({ state: 'ready', crashes: 1 });
    expect(back.pid).not.toBe(killed);
    expect(await appServerPid(host.pid)).toBe(back.pid);

    expect(await host.request('message/send', { taskId: 'task-1', markdown: 'Message two.' })).toMatchObject({ right: { status: 'completed', threadId, error: null } });
    const last = modelTurns(box.model).at(-1);
    expect(last === undefined ? [] : userMessages(last).filter((text) => text.startsWith('Message'))).toEqual(['Message one.', 'Message two.']);
    await expect.poll(() => host.stderr(), { timeout: 10_000 }).toContain('thread resumed');
  });

  it('a SIGKILL while a plugin form waits: the send ends failed, the card is dismissed, the task resumes, and accounts/switch works', async () => {
    // Codex's login callback server takes one port per machine: a login started elsewhere would cancel this one.
    await withMachineLock('codex-login', async () => {
      const { host } = box;
      const task = await host.request('task/list', {});
      const threadId = task._tag === 'Right' ? task.right.tasks.find((t) => t.taskId === 'task-1')?.threadId : undefined;
      const cardsBefore = host.cards.length;
      const pending = host.request('message/send', { taskId: 'task-1', markdown: 'Message three, with a form.' });
      await until('the form card', () => host.cards.length > cardsBefore, 60_000);
      const card = host.cards[cardsBefore];
      expect(card).toMatchObject({ origin: 'mcpElicitation', threadId });
      if (card === undefined) throw new Error('no card was shown');

      const dismissed = host.nextNotification<{ cardId: string }>('card/dismissed', (params) => params.cardId === card.cardId);
      const failedTurn = host.nextNotification<{ taskId: string; turn: { status: string } }>('transcript/turnCompleted', (params) => params.taskId === 'task-1' && params.turn.status === 'failed');
      const ready = host.nextNotification<RuntimeStatus>('runtime/status', statusOf('ready'));
      await killAppServer(host.pid);
      const answer = await pending;
      expect(answer).toMatchObject({ right: { status: 'failed', threadId, error: expect.stringContaining('app-server') } });
      expect(await dismissed).toEqual({ cardId: card.cardId, seq: expect.any(Number) });
      expect(await failedTurn).toMatchObject({ taskId: 'task-1', threadId, turn: { status: 'failed', error: { message: expect.stringContaining('app-server') } } });
      await ready;

      expect(await host.request('message/send', { taskId: 'task-1', markdown: 'Message four.' })).toMatchObject({ right: { status: 'completed', threadId, error: null } });
      const last = modelTurns(box.model).at(-1);
      const seen = last === undefined ? [] : userMessages(last);
      expect(seen).toEqual(expect.arrayContaining(['Message one.', 'Message two.', 'Message four.']));

      // Nothing of the dead processes keeps the executor busy: a second account is added and switched to.
      const adding = await host.request('accounts/add', {});
      if (adding._tag === 'Left') throw new Error(`accounts/add failed: ${adding.left.message}`);
      const completed = host.nextNotification<{ loginId: string; ok: boolean }>('accounts/loginCompleted', (params) => params.loginId === adding.right.loginId, { includePast: true });
      await writeFile(linkedAuth(), chatgptAuthJson(GRACE));
      expect(await completed).toMatchObject({ ok: true });
      const listed = await host.request('accounts/list', {});
      const ada = listed._tag === 'Right' ? listed.right.accounts.find((account) => account.email === ADA.email) : undefined;
      if (ada === undefined) throw new Error('Ada should be listed');
      expect(await host.request('accounts/switch', { accountId: ada.id })).toEqual({ _tag: 'Right', right: { switched: true, accountId: ada.id, email: ADA.email } });

      const statuses = host.runtimeStatuses().map((status) => status.state);
      expect(statuses).toEqual(['restarting', 'ready', 'restarting', 'ready', 'starting', 'ready']);
      expect(JSON.stringify(host.runtimeStatuses()) + host.stderr()).not.toContain(TOKEN_CANARY);
    }, { timeoutMs: 150_000 });
  }, 240_000);

  it('a task whose thread never completed a turn gets a new thread after a crash, and its message completes there', async () => {
    const { host } = box;
    const created = await host.request('task/create', { taskId: 'task-2', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    if (created._tag === 'Left') throw new Error(`task/create failed: ${created.left.message}`);
    const lost = created.right.task.threadId;
    const ready = host.nextNotification<RuntimeStatus>('runtime/status', statusOf('ready'));
    await killAppServer(host.pid);
    await ready;
    const sent = await host.request('message/send', { taskId: 'task-2', markdown: 'Hello again.' });
    expect(sent).toMatchObject({ right: { status: 'completed', error: null } });
    const threadId = sent._tag === 'Right' ? sent.right.threadId : '';
    expect(threadId).not.toBe(lost);
    expect(await host.request('task/list', {})).toMatchObject({ right: { tasks: expect.arrayContaining([expect.objectContaining({ taskId: 'task-2', threadId })]) } });
    await expect.poll(() => host.stderr(), { timeout: 10_000 }).toContain('thread started again: lost before its first turn');
  });

  it('a task whose only turn failed resumes its thread after a crash, with that turn in its history', async () => {
    const { host } = box;
    const created = await host.request('task/create', { taskId: 'task-3', modelSelection: { model: null }, executionRequest: { workspace: box.workspace } });
    if (created._tag === 'Left') throw new Error(`task/create failed: ${created.left.message}`);
    const threadId = created.right.task.threadId;
    expect(await host.request('message/send', { taskId: 'task-3', markdown: 'Message five, refused by the model.' })).toMatchObject({ right: { status: 'failed', threadId } });
    const ready = host.nextNotification<RuntimeStatus>('runtime/status', statusOf('ready'));
    await killAppServer(host.pid);
    await ready;
    expect(await host.request('message/send', { taskId: 'task-3', markdown: 'Message six.' })).toMatchObject({ right: { status: 'completed', threadId, error: null } });
    const last = modelTurns(box.model).at(-1);
    expect(last === undefined ? [] : userMessages(last).filter((text) => text.startsWith('Message'))).toEqual(['Message five, refused by the model.', 'Message six.']);
    expect(await host.request('task/list', {})).toMatchObject({ right: { tasks: expect.arrayContaining([expect.objectContaining({ taskId: 'task-3', threadId })]) } });
  });
});
