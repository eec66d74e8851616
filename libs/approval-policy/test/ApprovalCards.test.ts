/**
 * Approval cards from requests: the golden fixtures were captured from the real Codex 0.171.0 with
 * the test harness (scenarios in `fixtures/scenarios/`, cwd normalised to `/workspace`).
 */
import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { approvalCard, approvalQuestions, handleApprovalRequest, type ApprovalRequestCard } from '../src/index.js';
import type { CommandApprovalCard } from '../src/ApprovalCards.js';

const fixture = (name: string): { method: string; params: Record<string, unknown> } =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as { method: string; params: Record<string, unknown> };

const right = (either: E.Either<unknown, ApprovalRequestCard>): ApprovalRequestCard => {
  if (E.isLeft(either)) throw new Error(`expected a card, got ${JSON.stringify(either.left)}`);
  return either.right;
};
const labels = (card: ApprovalRequestCard): ReadonlyArray<string> => card.questions[0].options.map((o) => o.label);
const command = (extra: Record<string, unknown>): Record<string, unknown> => ({
  kind: 'command', threadId: 't', turnId: 'u', itemId: 'i', startedAtMs: 0, environmentId: null, command: 'npm test', cwd: '/repo', ...extra,
});

describe('command approval cards', () => {
  it('map the real request: advertised decisions only, in order, with the amendment prefix', () => {
    const { method, params } = fixture('command-approval');
    const card = right(approvalCard(method, params)) as CommandApprovalCard;
    expect(card._tag).toBe('CommandApprovalCard');
    expect(card.questions[0]).toMatchObject({
      id: 'decision',
      header: 'Run a command',
      question: "Codex wants to run a command: /bin/bash -lc 'touch x'\nIn: /workspace\nReason: create the marker file",
      isOther: false,
      isSecret: false,
    });
    expect(labels(card)).toEqual(['Run once', 'Always allow commands starting with "touch x"', 'Stop the task']);
    expect(card.decisions).toEqual(['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch', 'x'] } }, 'cancel']);
    expect(card.source).toEqual({ threadId: params['threadId'], turnId: params['turnId'], itemId: 'call_0_0', approvalId: null });
    expect(card).toMatchObject({ conservative: false, ignored: [], submitOnSelect: true });
  });

  it('offer the conservative set when nothing is advertised (older servers)', () => {
    for (const availableDecisions of [undefined, null]) {
      const card = right(approvalCard('item/commandExecution/requestApproval', command(availableDecisions === null ? { availableDecisions } : {})));
      expect(card.decisions).toEqual(['accept', 'decline', 'cancel']);
      expect(labels(card)).toEqual(['Run once', "Don't run", 'Stop the task']);
      expect(card).toMatchObject({ conservative: true });
    }
  });

  it('default kind to command when an older server leaves it out', () => {
    const params = command({});
    delete params['kind'];
    expect(right(approvalCard('item/commandExecution/requestApproval', params))._tag).toBe('CommandApprovalCard');
  });

  it('leave out unknown entries, duplicates and amendments that are empty or not the proposed one', () => {
    const card = right(
      approvalCard(
        'item/commandExecution/requestApproval',
        command({
          proposedExecpolicyAmendment: ['npm', 'test'],
          availableDecisions: [
            'accept',
            'approve',
            'accept',
            { acceptWithExecpolicyAmendment: { execpolicy_amendment: [] } },
            { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['npm'] } },
            { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['npm', 'test'] } },
            'acceptForSession',
            'decline',
          ],
        }),
      ),
    );
    expect(card.decisions).toEqual(['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['npm', 'test'] } }, 'acceptForSession', 'decline']);
    expect(labels(card)).toEqual(['Run once', 'Always allow commands starting with "npm test"', 'Allow for this session', "Don't run"]);
    expect(card._tag === 'CommandApprovalCard' && card.ignored.map((i) => [i._tag, i.index])).toEqual([
      ['UnknownDecision', 1],
      ['DuplicateDecision', 2],
      ['InvalidAmendment', 3],
      ['MismatchedAmendment', 4],
    ]);
  });

  it('quote prefix words so that distinct prefixes read differently', () => {
    const card = right(
      approvalCard(
        'item/commandExecution/requestApproval',
        command({
          availableDecisions: [
            { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['a b'] } },
            { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['a', 'b'] } },
            { acceptWithExecpolicyAmendment: { execpolicy_amendment: ["it's"] } },
          ],
        }),
      ),
    );
    expect(labels(card)).toEqual([
      `Always allow commands starting with "'a b'"`,
      'Always allow commands starting with "a b"',
      `Always allow commands starting with "'it'\\''s'"`,
    ]);
  });

  it('ask for network access with the host and protocol of networkApprovalContext', () => {
    const card = right(
      approvalCard(
        'item/commandExecution/requestApproval',
        command({
          reason: 'download the package',
          networkApprovalContext: { host: 'registry.npmjs.org', protocol: 'https' },
          proposedNetworkPolicyAmendments: [{ host: 'registry.npmjs.org', action: 'allow' }, { host: 'registry.npmjs.org', action: 'deny' }],
          availableDecisions: [
            'accept',
            'acceptForSession',
            { applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'registry.npmjs.org', action: 'allow' } } },
            { applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'registry.npmjs.org', action: 'deny' } } },
            { applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'evil.example', action: 'allow' } } },
            'decline',
            'cancel',
          ],
        }),
      ),
    );
    expect(card.questions[0].header).toBe('Network access');
    expect(card.questions[0].question).toBe('Codex wants network access to registry.npmjs.org (https).\nCommand: npm test\nIn: /repo\nReason: download the package');
    expect(labels(card)).toEqual([
      'Allow once',
      'Allow for this session',
      'Allow network access to registry.npmjs.org',
      'Block network access to registry.npmjs.org',
      "Don't allow",
      'Stop the task',
    ]);
    expect(card._tag === 'CommandApprovalCard' && card.ignored).toEqual([{ _tag: 'MismatchedAmendment', index: 4, message: expect.any(String) }]);
  });

  it('name terminal input and extra permissions', () => {
    const card = right(
      approvalCard(
        'item/commandExecution/requestApproval',
        command({ kind: 'writeStdin', additionalPermissions: { network: { enabled: true }, fileSystem: { read: null, write: ['/repo/out'] } } }),
      ),
    );
    expect(card.questions[0].header).toBe('Terminal input');
    expect(card.questions[0].question).toContain('It also asks for: network access; write access to /repo/out');
    expect(labels(card)).toEqual(['Send once', "Don't send", 'Stop the task']);
  });
});

describe('file-change approval cards', () => {
  it('map the real request with the conservative set (Codex 0.171.0 advertises no decisions)', () => {
    const { method, params } = fixture('file-change-approval');
    const card = right(approvalCard(method, params));
    expect(card).toMatchObject({ _tag: 'FileChangeApprovalCard', conservative: true, decisions: ['accept', 'decline', 'cancel'] });
    expect(labels(card)).toEqual(['Apply the changes', "Don't apply", 'Stop the task']);
    expect(card.questions[0]).toMatchObject({ header: 'Change files', question: 'Codex wants to change files.' });
  });

  it('show the reason and the grant root, and honour advertised decisions of a newer server', () => {
    const card = right(
      approvalCard('item/fileChange/requestApproval', {
        threadId: 't', turnId: 'u', itemId: 'i', startedAtMs: 0, reason: 'write the report', grantRoot: '/repo/out',
        availableDecisions: ['acceptForSession', 'accept', 'acceptForSession', 'later', 'cancel'],
      }),
    );
    expect(card.questions[0].question).toBe('Codex wants to change files.\nReason: write the report\nIt asks to allow writes under /repo/out for the rest of the session.');
    expect(card.decisions).toEqual(['acceptForSession', 'accept', 'cancel']);
    expect(labels(card)).toEqual(['Allow changes for this session', 'Apply the changes', 'Stop the task']);
  });
});

describe('permission approval cards', () => {
  const params = {
    threadId: 't', turnId: 'u', itemId: 'i', environmentId: null, startedAtMs: 0, cwd: '/repo', reason: 'publish the build',
    permissions: { network: { enabled: true }, fileSystem: { read: null, write: ['/repo/dist'], entries: [{ path: { type: 'special', value: { kind: 'tmpdir' } }, access: 'write' }] } },
  };

  it('map the real request (network and a write path, which Codex also repeats in entries)', () => {
    const real = fixture('permissions-approval');
    const card = right(approvalCard(real.method, real.params));
    expect(card.questions[0].question).toBe('Codex asks for more permissions: network access; write access to /var/tmp/wework-approval-out.\nIn: /workspace\nReason: write the build output');
    expect(card._tag === 'PermissionsApprovalCard' && card.grant).toEqual(real.params['permissions']);
  });

  it('summarise the requested permissions and offer the four choices', () => {
    const card = right(approvalCard('item/permissions/requestApproval', params));
    expect(card.questions[0]).toMatchObject({
      header: 'More permissions',
      question: 'Codex asks for more permissions: network access; write access to /repo/dist; write access to the temporary directory.\nIn: /repo\nReason: publish the build',
    });
    expect(labels(card)).toEqual(['Allow for this turn', 'Allow for this session', 'Review each command this turn', 'Deny']);
    expect(card._tag === 'PermissionsApprovalCard' && card.grant).toEqual(params.permissions);
  });

  it('grant only the requested parts', () => {
    const card = right(approvalCard('item/permissions/requestApproval', { ...params, permissions: { network: null, fileSystem: { read: ['/etc/hosts'], write: null } } }));
    expect(card._tag === 'PermissionsApprovalCard' && card.grant).toEqual({ fileSystem: { read: ['/etc/hosts'], write: null } });
  });
});

describe('handleApprovalRequest', () => {
  it('shows a card for a readable request', () => {
    const { method, params } = fixture('command-approval');
    expect(handleApprovalRequest(method, params)._tag).toBe('ShowCard');
  });

  it('responds with the safe refusal when the params cannot be read or offer nothing', () => {
    expect(handleApprovalRequest('item/commandExecution/requestApproval', { threadId: 1 })).toMatchObject({
      _tag: 'Respond',
      method: 'item/commandExecution/requestApproval',
      response: { decision: 'decline' },
      reason: { _tag: 'InvalidParams' },
    });
    expect(handleApprovalRequest('item/commandExecution/requestApproval', command({ availableDecisions: 'accept' }))).toMatchObject({
      _tag: 'Respond',
      response: { decision: 'decline' },
      reason: { _tag: 'InvalidParams', message: expect.stringContaining('availableDecisions') },
    });
    expect(handleApprovalRequest('item/commandExecution/requestApproval', command({ availableDecisions: ['approve', { acceptWithExecpolicyAmendment: { execpolicy_amendment: [] } }] }))).toMatchObject({
      _tag: 'Respond',
      response: { decision: 'decline' },
      reason: { _tag: 'NoUsableDecisions', ignored: [{ _tag: 'UnknownDecision' }, { _tag: 'InvalidAmendment' }] },
    });
    expect(handleApprovalRequest('item/fileChange/requestApproval', null)).toMatchObject({ _tag: 'Respond', response: { decision: 'decline' } });
    expect(handleApprovalRequest('item/permissions/requestApproval', {})).toEqual(
      expect.objectContaining({ _tag: 'Respond', response: { permissions: {}, scope: 'turn' } }),
    );
  });

  it('leaves other methods alone', () => {
    expect(handleApprovalRequest('mcpServer/elicitation/request', {})).toEqual({ _tag: 'NotAnApprovalRequest', method: 'mcpServer/elicitation/request' });
  });
});

describe('approvalQuestions', () => {
  it('are plain protocol questions', () => {
    const { method, params } = fixture('command-approval');
    const card = right(approvalCard(method, params));
    expect(approvalQuestions(card)).toEqual([{ ...card.questions[0], options: [...card.questions[0].options] }]);
  });
});
