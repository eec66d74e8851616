/**
 * When does an "Allow this tool" card appear, and what does `approvalPolicy: "never"` do to plugin forms?
 * Real app-server, real forms plugin, scripted model, a scripted host.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, respond, say } from '@wework/scripted-model';
import type { HostReply } from '@wework/elicitation-mapper';
import { threadParamsFor } from '../src/executorConfig.js';
import type { HostCard } from '@wework/host-protocol';
import type { ExecutorHost } from '../src/cards/ExecutorHost.js';
import { managedConfig, startSandbox, toolOutputs } from './support/executorSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Answers every card with its first option (for an approval card: allow once). */
function firstOptionHost(): ExecutorHost & { readonly cards: HostCard[] } {
  const cards: HostCard[] = [];
  return {
    cards,
    showCard: (card) => {
      cards.push(card);
      const answers = Object.fromEntries(card.questions.map((q) => [q.id, { answers: [q.options?.[0]?.label ?? 'yes'] }]));
      return Promise.resolve({ answers } satisfies HostReply);
    },
  };
}

/**
 * The forms server as Codex's own default leaves it (no `default_tools_approval_mode`): what a server
 * that Wework does not manage looks like.
 */
const unmanagedConfig = (features: Record<string, unknown> = {}) => (modelUrl: string, forms: { readonly command: string; readonly args: ReadonlyArray<string> }) => {
  const managed = managedConfig()(modelUrl, forms);
  return { ...managed, features: { ...(managed['features'] as object), ...features }, mcp_servers: { forms: { command: forms.command, args: forms.args } } };
};

const echoTurn = [respond(callTool('forms', 'echo', { text: 'hello' })), respond(say('done'))];

describe('the "Allow tool" card', () => {
  it('does not appear for a Wework-managed server (default_tools_approval_mode = "approve")', async () => {
    const host = firstOptionHost();
    const box = await startSandbox({ script: echoTurn, host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
    await box.runtime.runTurn(box.threadId, 'Echo');
    expect(host.cards).toEqual([]);
    expect(toolOutputs(box.items)).toEqual(['hello']);
  });

  const cases = [
    ['a managed server whose plugin declares "prompt" (the explicit setting wins)', managedConfig({ default_tools_approval_mode: 'prompt' })],
    ["a server left in Codex's default mode", unmanagedConfig()],
  ] as const;
  for (const [what, config] of cases) {
    it(`appears as a request_user_input card for ${what}, and allowing runs the tool`, async () => {
      const host = firstOptionHost();
      const box = await startSandbox({ script: echoTurn, host, config, threadParams: threadParamsFor() }, cleanups);
      await box.runtime.runTurn(box.threadId, 'Echo');
      expect(host.cards).toHaveLength(1);
      expect(host.cards[0]).toMatchObject({ origin: 'requestUserInput', kind: 'input' });
      expect(JSON.stringify(host.cards[0]?.questions)).toMatch(/echo/);
      expect(toolOutputs(box.items)).toEqual(['hello']);
    });
  }

  it('is mapped to an approval card (not an empty form) when Codex wraps it as an elicitation', async () => {
    const host = firstOptionHost();
    const box = await startSandbox({ script: echoTurn, host, config: unmanagedConfig({ tool_call_mcp_elicitation: true }), threadParams: threadParamsFor() }, cleanups);
    await box.runtime.runTurn(box.threadId, 'Echo');
    expect(host.cards).toHaveLength(1);
    expect(host.cards[0]).toMatchObject({ origin: 'mcpElicitation', serverName: 'forms', kind: 'toolApproval', questions: [{ answerType: 'approval' }] });
    expect(host.cards[0]?.message).toMatch(/echo/);
    const choices = host.cards[0]?.questions[0]?.options?.map((option) => option.value) ?? [];
    expect(choices[0]).toBe('allowOnce');
    expect(host.cards[0]?.questions[0]?.options).toHaveLength(choices.length);
    expect(toolOutputs(box.items)).toEqual(['hello']);
  });
});

describe('approvalPolicy "never"', () => {
  it('auto-declines the plugin form before it reaches the executor: no card, the plugin sees decline', async () => {
    const host = firstOptionHost();
    const script = [respond(callTool('forms', 'choose_strategy')), respond(say('done'))];
    const box = await startSandbox({ script, host, config: managedConfig(), threadParams: { ...threadParamsFor(), approvalPolicy: 'never' } }, cleanups);
    await box.runtime.runTurn(box.threadId, 'Ask me');
    expect(host.cards).toEqual([]);
    expect(toolOutputs(box.items)[0]).toMatch(/^elicitation: decline\n/);
    expect(box.log.map((entry) => entry.event)).not.toContain('codex mcp elicitation request');
  });
});
