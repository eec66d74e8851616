/**
 * Codex's MCP tool approvals (`_meta.codex_approval_kind: "mcp_tool_call"`) become approval cards
 * offering exactly what `persist` offers, and each choice maps to the response that, sent to the
 * real Codex 0.171.0, had the recorded effect (golden fixtures from scripts/capture-goldens.mjs).
 */
import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { approvalChoiceOf } from '../src/AnswerMapping.js';
import { approvalResult } from '../src/ToolApproval.js';
import { elicitationToCard, responseForCard } from '../src/index.js';
import { userInputQuestions, type ApprovalChoice } from '../src/Card.js';
import { codexToolApprovalParamsArbitrary } from '../src/testing.js';
import { answers, approvalCardOf, golden } from './support.js';

const auto = golden('tool-approval-auto-session').cards[0]?.params;
const prompt = golden('tool-approval-prompt-session').cards[0]?.params;

describe('recognising a tool approval', () => {
  test('the recorded request (auto mode) becomes an approval card with every choice', () => {
    const card = approvalCardOf(auto);
    expect(card).toMatchObject({
      _tag: 'ToolApprovalCard',
      source: { serverName: 'forms' },
      message: 'Allow the forms MCP server to run tool "echo"?',
      tool: {
        name: 'echo',
        title: null,
        description: 'Returns its text unchanged. Never asks the user anything.',
        params: { text: 'one' },
        paramsDisplay: [{ name: 'text', displayName: 'text', value: 'one' }],
      },
      choices: ['allowOnce', 'allowForSession', 'allowAlways', 'decline'],
      submitOnSelect: true,
    });
    expect(userInputQuestions(card)).toEqual([
      {
        id: 'approval',
        header: 'Approve tool call?',
        question: 'Allow the forms MCP server to run tool "echo"?',
        isOther: false,
        isSecret: false,
        options: [
          { label: 'Allow once', description: 'Run the tool this time.' },
          { label: 'Allow for this session', description: 'Run the tool and do not ask again in this session.' },
          { label: 'Always allow', description: 'Run the tool and do not ask again (saved in the Codex config).' },
          { label: 'Decline', description: 'Do not run the tool.' },
        ],
      },
    ]);
  });

  test('in prompt mode Codex offers no persistence: allow once or decline only', () => {
    expect(approvalCardOf(prompt).choices).toEqual(['allowOnce', 'decline']);
  });

  test('persist as a single string, or with unknown values', () => {
    const withPersist = (persist: unknown) => approvalCardOf({ ...auto, _meta: { codex_approval_kind: 'mcp_tool_call', persist } }).choices;
    expect(withPersist('session')).toEqual(['allowOnce', 'allowForSession', 'decline']);
    expect(withPersist('always')).toEqual(['allowOnce', 'allowAlways', 'decline']);
    expect(withPersist(['always', 'forever', 'session'])).toEqual(['allowOnce', 'allowForSession', 'allowAlways', 'decline']);
    expect(withPersist(42)).toEqual(['allowOnce', 'decline']);
  });

  test('another Codex approval kind is declined with a reason', () => {
    const card = elicitationToCard({ ...auto, _meta: { codex_approval_kind: 'tool_suggestion' } });
    expect(E.isLeft(card) && card.left._tag).toBe('UnsupportedApprovalKind');
  });

  test('a form with fields stays a business form whatever its _meta says', () => {
    const card = elicitationToCard({ ...auto, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    expect(E.isRight(card) && card.right._tag).toBe('FormCard');
  });

  test('every generated approval request becomes an approval card starting with allow once and ending with decline', () => {
    fc.assert(
      fc.property(codexToolApprovalParamsArbitrary, (params) => {
        const card = approvalCardOf(params);
        expect(card.choices[0]).toBe('allowOnce');
        expect(card.choices[card.choices.length - 1]).toBe('decline');
        expect(card.questions[0].options.map((o) => o.label)).toHaveLength(card.choices.length);
      }),
    );
  });
});

describe('choices → the response Codex expects (recorded against the real binary)', () => {
  const recorded: ReadonlyArray<readonly [ApprovalChoice | 'cancel', string]> = [
    ['allowOnce', 'tool-approval-auto-once'],
    ['allowForSession', 'tool-approval-auto-session'],
    ['allowAlways', 'tool-approval-auto-always'],
    ['decline', 'tool-approval-auto-decline'],
    ['cancel', 'tool-approval-auto-cancel'],
  ];

  test.each(recorded)('%s sends what the golden %s sent', (choice, name) => {
    const fixture = golden(name);
    const card = approvalCardOf(fixture.cards[0]?.params);
    const sent = choice === 'cancel' ? responseForCard(card, { action: 'cancel' }) : approvalResult(card, choice);
    expect(sent).toStrictEqual(fixture.cards[0]?.sent);
  });

  test('the recorded effects: once asks again, session and always do not, decline and cancel fail the call', () => {
    const outcome = (name: string) => golden(name).toolCalls.map((call) => call.error ?? `ran: ${call.output ?? ''}`);
    expect(golden('tool-approval-auto-once').cards).toHaveLength(2);
    expect(outcome('tool-approval-auto-once')[0]).toBe('ran: one');
    expect(golden('tool-approval-auto-session').cards).toHaveLength(1);
    expect(outcome('tool-approval-auto-session')).toEqual(['ran: one', 'ran: two']);
    expect(golden('tool-approval-auto-always').cards).toHaveLength(1);
    expect(outcome('tool-approval-auto-always')).toEqual(['ran: one', 'ran: two']);
    expect(outcome('tool-approval-auto-decline')[0]).toBe('user rejected MCP tool call');
    expect(outcome('tool-approval-auto-cancel')[0]).toBe('user cancelled MCP tool call');
    expect(golden('tool-approval-prompt-session').cards).toHaveLength(2);
  });

  test('answering by label goes through the same mapping', () => {
    const card = approvalCardOf(auto);
    expect(responseForCard(card, answers({ approval: ['Allow for this session'] }))).toStrictEqual({ action: 'accept', content: {}, _meta: { persist: 'session' } });
    expect(responseForCard(card, answers({ approval: ['Always allow'] }))).toStrictEqual({ action: 'accept', content: {}, _meta: { persist: 'always' } });
    expect(responseForCard(card, answers({ approval: ['Allow once'] }))).toStrictEqual({ action: 'accept', content: {}, _meta: null });
    expect(responseForCard(card, answers({ approval: ['Decline'] }))).toStrictEqual({ action: 'decline', content: null, _meta: null });
    expect(approvalChoiceOf(card, answers({ approval: ['Decline'] }))).toBe('decline');
  });

  test('a choice the request did not offer is no usable answer (cancel): a host cannot grant more', () => {
    const card = approvalCardOf(prompt);
    expect(approvalResult(card, 'allowAlways')).toStrictEqual({ action: 'cancel', content: null, _meta: null });
    expect(responseForCard(card, answers({ approval: ['Always allow'] }))).toStrictEqual({ action: 'cancel', content: null, _meta: null });
    expect(responseForCard(card, answers({ approval: [] }))).toStrictEqual({ action: 'cancel', content: null, _meta: null });
  });
});
