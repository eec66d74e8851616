/**
 * The "Approval cards and task permissions" example of README.md, kept compiling and passing.
 */
import { expect, test } from 'vitest';
import type { HostReply } from '@wework/elicitation-mapper';
import { handleApprovalRequest, permissionParamsForTask, responseForApprovalCard } from '../src/index.js';
import type { ApprovalResponse } from '../src/ApprovalAnswers.js';

test('README approval example', () => {
  const task: unknown = { modelSelection: { model: 'gpt-5.5', options: { permissionMode: 'workspace' } } };
  const request = {
    id: 0,
    method: 'item/commandExecution/requestApproval',
    params: {
      kind: 'command', threadId: 't1', turnId: 'u1', itemId: 'call_0', startedAtMs: 0, environmentId: 'local',
      reason: 'create the marker file', command: "/bin/bash -lc 'touch x'", cwd: '/repo', proposedExecpolicyAmendment: ['touch', 'x'],
      availableDecisions: ['accept', { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch', 'x'] } }, 'cancel'],
    },
  };
  const logged: string[] = [];
  const sent: ApprovalResponse[] = [];
  const log = (message: string) => logged.push(message);
  const reply = (_id: number, response: ApprovalResponse) => sent.push(response);
  const askUser = (): HostReply => ({ answers: { decision: { answers: ['Always allow commands starting with "touch x"'] } } });

  // --- README example begins ---
  // thread/resume (or thread/start, thread/fork, turn/start) of a persisted task: never more permissive.
  const { params, warning } = permissionParamsForTask(task, 'thread/resume');
  if (warning) log(warning.message); // unknown or corrupt mode → Read only
  // params: { permissions: ':workspace', approvalPolicy: 'on-request' }

  // A command approval from Codex: show a card, map the answer back.
  const decision = handleApprovalRequest(request.method, request.params);
  if (decision._tag === 'Respond') {
    log(decision.reason.message);
    reply(request.id, decision.response); // { decision: 'decline' }
  } else if (decision._tag === 'ShowCard') {
    // decision.card.questions[0].options: 'Run once', 'Always allow commands starting with "touch x"', 'Stop the task'
    const answer = responseForApprovalCard(decision.card, askUser());
    if (answer.note) log(answer.note.message); // unknown label, tampered amendment... → decline
    reply(request.id, answer.response); // { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch', 'x'] } } }
  }
  // --- README example ends ---

  expect(params).toEqual({ permissions: ':workspace', approvalPolicy: 'on-request' });
  expect(logged).toEqual([]);
  expect(sent).toEqual([{ decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch', 'x'] } } }]);
});
