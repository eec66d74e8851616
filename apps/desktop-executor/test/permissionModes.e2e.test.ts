/**
 * Permission modes and approval cards end to end: the real app-server (with its real sandbox), the
 * scripted model running shell commands and patches, and a scripted host answering the cards.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PERMISSION_MODES, permissionParams, permissionParamsForTask, type PermissionMode } from '@wework/approval-policy';
import type { HostReply } from '@wework/elicitation-mapper';
import { applyPatch, callTool, functionCallOutputs, respond, say, shell, type Script } from '@wework/scripted-model';
import type { HostCard } from '@wework/host-protocol';
import type { ExecutorHost } from '../src/cards/ExecutorHost.js';
import { managedConfig, startSandbox, toolOutputs } from './support/executorSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A directory outside every writable root of the sandbox (the workspace and the temp dir). */
let outside: string;
beforeEach(async () => {
  outside = await mkdtemp('/var/tmp/wework-outside-');
  cleanups.push(() => rm(outside, { recursive: true, force: true }));
});

/** The decision values a card offers, in the order of its options. */
const offered = (card: HostCard | undefined): ReadonlyArray<unknown> => card?.questions[0]?.options?.map((option) => option.value) ?? [];

/** Answers each approval card with the option whose decision `pick` chooses (by the card's own metadata, never by label text). */
function approvingHost(pick: (decisions: ReadonlyArray<unknown>) => number | 'decline'): ExecutorHost & { readonly cards: HostCard[] } {
  const cards: HostCard[] = [];
  return {
    cards,
    showCard: (card) => {
      cards.push(card);
      const choice = pick(offered(card));
      if (choice === 'decline') return Promise.resolve({ action: 'decline' } satisfies HostReply);
      const question = card.questions[0];
      const label = question?.options?.[choice]?.label ?? '';
      return Promise.resolve({ answers: { [question?.id ?? 'decision']: { answers: [label] } } } satisfies HostReply);
    },
  };
}

const first = (): number => 0;
const decisionIndex = (wanted: string) => (decisions: ReadonlyArray<unknown>) =>
  decisions.findIndex((d) => (typeof d === 'string' ? d === wanted : typeof d === 'object' && d !== null && wanted in d));

async function sandboxFor(mode: PermissionMode, script: Script, host: ExecutorHost, slug?: string) {
  const config = managedConfig();
  return startSandbox(
    {
      script,
      host,
      config: (url, forms) => ({ ...config(url, forms), ...(slug === undefined ? {} : { model: slug }) }),
      threadParams: permissionParams(mode),
    },
    cleanups,
  );
}

const escalated = (cmd: string) => shell(cmd, { sandboxPermissions: 'require_escalated', justification: 'the task needs this file' });

describe('Read only', () => {
  it('asks before a write, offering exactly the server’s decisions in its order; accept runs the command', async () => {
    const host = approvingHost(first);
    const file = join(outside, 'accepted.txt');
    const box = await sandboxFor('read-only', [respond(escalated(`touch ${file}`)), respond(say('done'))], host);
    await box.runtime.runTurn(box.threadId, 'Create the file', permissionParams('read-only'));
    expect(host.cards).toHaveLength(1);
    const [card] = host.cards;
    expect(card?.origin).toBe('commandApproval');
    const request = box.log.find((entry) => entry.event === 'codex command approval request');
    expect(request).toBeDefined();
    expect(card?.kind).toBe('approval');
    expect(card?.questions[0]?.answerType).toBe('approval');
    expect(offered(card).map((d) => (typeof d === 'string' ? d : Object.keys(d as object)[0]))).toEqual(['accept', 'acceptWithExecpolicyAmendment', 'cancel']);
    expect(card?.questions[0]?.question).toContain(`touch ${file}`);
    expect(existsSync(file)).toBe(true);
  });

  it('decline: the command does not run', async () => {
    const host = approvingHost(() => 'decline');
    const file = join(outside, 'declined.txt');
    const box = await sandboxFor('read-only', [respond(escalated(`touch ${file}`)), respond(say('done'))], host);
    const turn = await box.runtime.runTurn(box.threadId, 'Create the file', permissionParams('read-only'));
    expect(turn).toMatchObject({ right: { status: 'completed' } });
    expect(host.cards).toHaveLength(1);
    expect(existsSync(file)).toBe(false);
  });

  it('"always allow" with the amendment the request carries: the identical command is not asked again', async () => {
    const host = approvingHost(decisionIndex('acceptWithExecpolicyAmendment'));
    const file = join(outside, 'again.txt');
    const script = [respond(escalated(`touch ${file}`)), respond(say('first')), respond(escalated(`touch ${file}`)), respond(say('second'))];
    const box = await sandboxFor('read-only', script, host);
    await box.runtime.runTurn(box.threadId, 'Create the file', permissionParams('read-only'));
    await box.runtime.runTurn(box.threadId, 'Create it again', permissionParams('read-only'));
    expect(host.cards).toHaveLength(1);
    expect(existsSync(file)).toBe(true);
  });

  for (const [answer, applied] of [['accept', true], ['decline', false]] as const) {
    it(`apply_patch asks with a file-change card; ${answer} ${applied ? 'applies' : 'does not apply'} the patch`, async () => {
      const host = approvingHost(answer === 'accept' ? decisionIndex('accept') : () => 'decline');
      const script = [respond(applyPatch('*** Begin Patch\n*** Add File: patched.txt\n+patched\n*** End Patch\n')), respond(say('done'))];
      const box = await sandboxFor('read-only', script, host, 'gpt-5.5');
      await box.runtime.runTurn(box.threadId, 'Patch', permissionParams('read-only'));
      expect(host.cards.map((card) => card.origin)).toEqual(['fileChangeApproval']);
      expect(existsSync(join(box.workspace, 'patched.txt'))).toBe(applied);
    });
  }
});

describe('Workspace', () => {
  it('writes inside the workspace without a card; outside, the sandbox blocks the write and an escalation asks', async () => {
    const host = approvingHost(first);
    const blocked = join(outside, 'blocked.txt');
    const asked = join(outside, 'asked.txt');
    const script = [respond(shell('touch inside.txt')), respond(shell(`touch ${blocked}`)), respond(escalated(`touch ${asked}`)), respond(say('done'))];
    const box = await sandboxFor('workspace', script, host);
    await box.runtime.runTurn(box.threadId, 'Write files', permissionParams('workspace'));
    expect(existsSync(join(box.workspace, 'inside.txt'))).toBe(true);
    expect(existsSync(blocked)).toBe(false);
    expect(host.cards.map((card) => card.origin)).toEqual(['commandApproval']);
    expect(existsSync(asked)).toBe(true);
  });
});

describe('Full access', () => {
  it('writes outside the workspace without any card, while a plugin form still reaches the host', async () => {
    const host: ExecutorHost & { cards: HostCard[] } = {
      cards: [],
      showCard(card) {
        this.cards.push(card);
        return Promise.resolve({ answers: { strategy: { answers: ['Fast'] } } });
      },
    };
    const file = join(outside, 'full.txt');
    const refused = join(outside, 'escalated.txt');
    const script = [respond(shell(`touch ${file}`)), respond(escalated(`touch ${refused}`)), respond(callTool('forms', 'choose_strategy')), respond(say('done'))];
    const box = await sandboxFor('full-access', script, host);
    await box.runtime.runTurn(box.threadId, 'Write and ask', permissionParams('full-access'));
    expect(existsSync(file)).toBe(true);
    // Under the granular policy Codex refuses an escalation request outright (told to the model), never as a card.
    expect(existsSync(refused)).toBe(false);
    const outputs = box.model.requests.flatMap((request) => functionCallOutputs(request).map((output) => output.text));
    expect(outputs.join('\n')).toMatch(/cannot ask for escalated permissions/);
    expect(host.cards.map((card) => card.origin)).toEqual(['mcpElicitation']);
    expect(toolOutputs(box.items)).toEqual(['elicitation: accept {"strategy":"fast"}\noutcome: continuing with strategy fast']);
  });
});

describe('a mode changed between turns of one thread', () => {
  it('takes effect on the next turn and holds for the turns after it that carry the same mode', async () => {
    const host = approvingHost(() => 'decline');
    const files = ['read-only.txt', 'full-access.txt', 'full-access-again.txt', 'read-only-again.txt'].map((name) => join(outside, name));
    const script = files.flatMap((file) => [respond(shell(`touch ${file}`)), respond(say('done'))]);
    const box = await sandboxFor('read-only', script, host);
    const modes: ReadonlyArray<PermissionMode> = ['read-only', 'full-access', 'full-access', 'read-only'];
    for (const [i, mode] of modes.entries()) {
      const turn = await box.runtime.runTurn(box.threadId, `Write file ${i}`, permissionParams(mode));
      expect(turn).toMatchObject({ right: { status: 'completed' } });
    }
    expect(files.map((file) => existsSync(file))).toEqual([false, true, true, false]);
  });
});

describe('resume and fork of a persisted task', () => {
  const tasks: ReadonlyArray<readonly [string, unknown, string]> = [
    ...PERMISSION_MODES.map((mode) => [mode, { modelSelection: { options: { permissionMode: mode } } }, permissionParams(mode).permissions] as const),
    ['no persisted mode (Full access)', { modelSelection: {} }, ':danger-full-access'],
    ['a corrupt persisted mode (fails closed to Read only)', { modelSelection: { options: { permissionMode: 'root-please' } } }, ':read-only'],
  ];
  for (const [what, task, expected] of tasks) {
    it(`keep the profile of ${what} on thread/start, turn/start, thread/resume and thread/fork`, async () => {
      const host = approvingHost(first);
      const start = permissionParamsForTask(task, 'thread/start');
      const box = await sandboxFor(start.mode, [respond(say('one'))], host);
      await box.runtime.runTurn(box.threadId, 'hello', permissionParamsForTask(task, 'turn/start').params);
      const resumes: unknown[] = [];
      const tap = box.runtime.server.client.onMessage((direction, message) => {
        if (direction === 'outgoing' && 'method' in message && message.method === 'thread/resume') resumes.push(message.params);
      });
      const resumed = await box.runtime.resumeThread(box.threadId, permissionParamsForTask(task, 'thread/resume').params);
      tap.dispose();
      // The handle needs no history: Codex is asked not to hydrate the thread's turns into the answer.
      expect(resumes).toEqual([expect.objectContaining({ threadId: box.threadId, excludeTurns: true })]);
      const forked = await box.runtime.forkThread(box.threadId, permissionParamsForTask(task, 'thread/fork').params);
      expect(resumed).toMatchObject({ right: { activePermissionProfile: { id: expected } } });
      expect(forked).toMatchObject({ right: { activePermissionProfile: { id: expected } } });
    });
  }
});
