/** Which answers to an approval card the host may be asked again for: those that do not fit the card. */
import { readFileSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalAnswerMisfit, approvalCard, handleApprovalRequest, responseForApprovalCard, type ApprovalRequestCard } from '../src/index.js';
import { approvalRequestArbitrary } from '../src/testing.js';

const realCommand = JSON.parse(readFileSync(new URL('./fixtures/command-approval.json', import.meta.url), 'utf8')) as { params: unknown };
const cardOf = (method: string, params: unknown): ApprovalRequestCard => {
  const card = approvalCard(method, params);
  if (E.isLeft(card)) throw new Error(card.left.message);
  return card.right;
};
const choose = (...labels: string[]) => ({ answers: { decision: { answers: labels } } });

describe('approvalAnswerMisfit', () => {
  const card = cardOf('item/commandExecution/requestApproval', realCommand.params);

  it('an unknown label, no answer, several answers or a reply that is not one are misfits', () => {
    expect(approvalAnswerMisfit(card, choose('Run it'))).toMatchObject({ _tag: 'UnknownLabel' });
    expect(approvalAnswerMisfit(card, choose())).toMatchObject({ _tag: 'MissingAnswer' });
    expect(approvalAnswerMisfit(card, choose('Run once', 'Stop the task'))).toMatchObject({ _tag: 'AmbiguousAnswer' });
    expect(approvalAnswerMisfit(card, { answers: {} })).toMatchObject({ _tag: 'MissingAnswer' });
    expect(approvalAnswerMisfit(card, 'nonsense')).toMatchObject({ _tag: 'InvalidReply' });
  });

  it('an offered label, cancel and decline fit; a card that does not check out is no misfit (refused at once)', () => {
    expect(approvalAnswerMisfit(card, choose('Run once'))).toBeNull();
    expect(approvalAnswerMisfit(card, { action: 'cancel' })).toBeNull();
    expect(approvalAnswerMisfit(card, { action: 'decline' })).toBeNull();
    const altered = { ...card, decisions: card.decisions.slice(1) } as ApprovalRequestCard;
    expect(responseForApprovalCard(altered, choose('Run once')).note).toMatchObject({ _tag: 'InvalidCard' });
    expect(approvalAnswerMisfit(altered, choose('Run once'))).toBeNull();
  });

  it('for any request and any offered label there is no misfit; a misfit message never quotes the answer', () => {
    fc.assert(
      fc.property(approvalRequestArbitrary, fc.nat(), fc.string({ minLength: 12 }), ({ method, params }, pick, junk) => {
        const decision = handleApprovalRequest(method, params);
        if (decision._tag === 'Respond') return;
        const generated = decision.card;
        const labels = generated.questions[0].options?.map((option) => option.label) ?? [];
        const label = labels[pick % labels.length];
        if (label !== undefined) expect(approvalAnswerMisfit(generated, choose(label))).toBeNull();
        if (!labels.includes(junk)) expect(approvalAnswerMisfit(generated, choose(junk))?.message).not.toContain(junk);
      }),
    );
  });
});
