/**
 * Approval requests of a newer Codex: the captured requests (fixtures, Codex 0.171.0) patched to
 * carry what this version does not know. An unknown decision is not offered (the known ones still
 * are); an unknown approval kind or an unknown kind of permission is refused, never accepted.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { approvalCard, handleApprovalRequest } from '../src/index.js';

const fixture = (name: string): { method: string; params: Record<string, unknown> } =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as { method: string; params: Record<string, unknown> };

describe('approval requests of a newer Codex', () => {
  it('does not offer an advertised decision it does not know, and still offers the known ones', () => {
    const { method, params } = fixture('command-approval');
    const decisions = [...(params['availableDecisions'] as unknown[])];
    decisions.splice(1, 0, 'acceptWithSandboxEscalation');
    const card = approvalCard(method, { ...params, availableDecisions: decisions });
    if (card._tag === 'Left' || card.right._tag !== 'CommandApprovalCard') return expect.fail('no command card');
    expect(card.right.decisions).toEqual(['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch', 'x'] } }, 'cancel']);
    expect(card.right.questions[0].options.map((o) => o.label)).toEqual(['Run once', 'Always allow commands starting with "touch x"', 'Stop the task']);
    expect(card.right.ignored).toEqual([{ _tag: 'UnknownDecision', index: 1, description: expect.any(String) }]);
  });

  it('refuses a command approval of an unknown kind: declined at once, no card', () => {
    const { method, params } = fixture('command-approval');
    const decision = handleApprovalRequest(method, { ...params, kind: 'gpuAccess' });
    expect(decision).toMatchObject({
      _tag: 'Respond',
      method,
      response: { decision: 'decline' },
      reason: { _tag: 'UnknownApprovalRequest', parts: [{ kind: 'literal', path: 'params.kind', codec: 'CommandExecutionApprovalKind' }] },
    });
    expect(decision._tag === 'Respond' && decision.reason.message).not.toContain('gpuAccess');
  });

  it('refuses a permission request with an unknown kind of path or access: the empty grant, nothing granted', () => {
    const { method, params } = fixture('permissions-approval');
    const permissions = structuredClone(params['permissions']) as { fileSystem: { entries: Array<Record<string, unknown>> } };
    permissions.fileSystem.entries.push({ path: { type: 'device', path: '/dev/gpu0' }, access: 'write' });
    expect(handleApprovalRequest(method, { ...params, permissions })).toMatchObject({
      _tag: 'Respond',
      response: { permissions: {}, scope: 'turn' },
      reason: { _tag: 'UnknownApprovalRequest', parts: [{ kind: 'variant', path: 'params.permissions.fileSystem.entries[1].path.type', codec: 'FileSystemPath' }] },
    });
    const access = structuredClone(params['permissions']) as { fileSystem: { entries: Array<Record<string, unknown>> } };
    access.fileSystem.entries[0] = { ...access.fileSystem.entries[0], access: 'execute' };
    expect(handleApprovalRequest(method, { ...params, permissions: access })).toMatchObject({
      _tag: 'Respond',
      response: { permissions: {}, scope: 'turn' },
      reason: { _tag: 'UnknownApprovalRequest', parts: [{ kind: 'literal', path: 'params.permissions.fileSystem.entries[0].access', codec: 'FileSystemAccessMode' }] },
    });
  });

  it('still shows the captured requests, unpatched', () => {
    for (const name of ['command-approval', 'file-change-approval', 'permissions-approval']) {
      const { method, params } = fixture(name);
      expect(handleApprovalRequest(method, params)._tag).toBe('ShowCard');
    }
  });
});
