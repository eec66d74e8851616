import * as E from 'fp-ts/lib/Either.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FINDING_ORDER } from '../src/FormsDiagnosis.js';
import { decodeFormsEvidence } from '../src/FormsEvidence.js';
import {
  diagnoseForms,
  emptyFormsEvidence,
  formatFinding,
  weworkGranularApprovalPolicy,
  type FormEvidence,
  type FormsEvidence,
  type FormsFinding,
  type ToolCallEvidence,
} from '../src/index.js';
import { formsEvidenceArbitrary } from '../src/testing.js';

/** A form Codex declined before the client: sent, never forwarded, the plugin got `decline`. */
const declinedForm: FormEvidence = {
  server: 'forms',
  tool: 'deploy',
  message: 'Choose a deployment target',
  mode: 'form',
  sent: true,
  hasProperties: true,
  duringToolCall: true,
  reachedClient: false,
  schemaSupported: null,
  clientAnswer: 'none',
  pluginResult: 'decline',
  pluginError: null,
  toolContinued: true,
};

/** A form that worked: forwarded, accepted, the plugin carried on. */
const workingForm: FormEvidence = { ...declinedForm, reachedClient: true, schemaSupported: true, clientAnswer: 'accept', pluginResult: 'accept' };

const plainCall: ToolCallEvidence = { server: 'forms', tool: 'deploy', approvalCard: 'none', reachedPlugin: true, error: null };

const tags = (evidence: FormsEvidence): ReadonlyArray<string> => diagnoseForms(evidence).map((finding) => finding._tag);
const only = <T extends FormsFinding['_tag']>(evidence: FormsEvidence, tag: T): Extract<FormsFinding, { _tag: T }> => {
  const findings = diagnoseForms(evidence);
  expect(findings.map((f) => f._tag)).toEqual([tag]);
  return findings[0] as Extract<FormsFinding, { _tag: T }>;
};

describe('diagnoseForms: the spec table', () => {
  it('finds nothing when forms and tool calls worked', () => {
    expect(diagnoseForms({ ...emptyFormsEvidence, approvalPolicy: weworkGranularApprovalPolicy, forms: [workingForm], toolCalls: [plainCall] })).toEqual([]);
  });

  it('names approvalPolicy "never" when the plugin got decline and no request reached the client', () => {
    const finding = only({ ...emptyFormsEvidence, approvalPolicy: 'never', forms: [declinedForm] }, 'PolicyNeverAutoDeclined');
    expect(finding.approvalPolicy).toBe('never');
    expect(finding.symptom).toBe('Plugin receives action: "decline", but logs do not contain mcpServer/elicitation/request');
    expect(finding.meaning).toContain('approvalPolicy "never"');
    expect(finding.action).toContain('"mcp_elicitations":true');
    expect(finding.where).toEqual(['forms.deploy']);
  });

  it('names granular mcp_elicitations: false', () => {
    const policy = { granular: { ...weworkGranularApprovalPolicy.granular, mcp_elicitations: false } };
    const finding = only({ ...emptyFormsEvidence, approvalPolicy: policy, forms: [declinedForm] }, 'GranularElicitationsOff');
    expect(finding.approvalPolicy).toEqual(policy);
    expect(finding.meaning).toContain('mcp_elicitations: false');
    expect(finding.action).toContain('mcp_elicitations to true');
  });

  it('names elicitations_auto_deny and a form sent outside any tool call', () => {
    expect(tags({ ...emptyFormsEvidence, elicitationsAutoDeny: true, forms: [declinedForm] })).toEqual(['ElicitationsAutoDeny']);
    expect(tags({ ...emptyFormsEvidence, approvalPolicy: weworkGranularApprovalPolicy, forms: [{ ...declinedForm, duringToolCall: false }] })).toEqual(['NoActiveTurn']);
  });

  it('falls back to the whole checklist when the evidence does not show the gate', () => {
    const finding = only({ ...emptyFormsEvidence, approvalPolicy: weworkGranularApprovalPolicy, forms: [declinedForm] }, 'DeclinedBeforeClient');
    expect(finding.action).toBe('Check elicitations_auto_deny, approvalPolicy, granular mcp_elicitations, and active-turn routing.');
  });

  it('reports every gate that is closed', () => {
    expect(tags({ ...emptyFormsEvidence, approvalPolicy: 'never', elicitationsAutoDeny: true, forms: [{ ...declinedForm, duringToolCall: false }] })).toEqual([
      'ElicitationsAutoDeny',
      'PolicyNeverAutoDeclined',
      'NoActiveTurn',
    ]);
  });

  it('sees an unsupported schema that reached the client, and a schema Codex rejected', () => {
    const unsupported = only({ ...emptyFormsEvidence, forms: [{ ...workingForm, mode: 'url', schemaSupported: false, clientAnswer: 'decline', pluginResult: 'decline' }] }, 'SchemaUnsupported');
    expect(unsupported.symptom).toBe('No form appears, but logs contain mcpServer/elicitation/request');
    expect(unsupported.modes).toEqual(['url']);
    const rejected = {
      ...declinedForm,
      hasProperties: false,
      pluginResult: 'none' as const,
      pluginError: { code: -32602, message: 'MCP error -32602: data did not match any variant of untagged enum ElicitRequestParamsWire' },
      toolContinued: true,
    };
    expect(tags({ ...emptyFormsEvidence, approvalPolicy: 'never', forms: [rejected] })).toEqual(['SchemaRejectedByCodex']);
  });

  it('sees Allow cards, with the key to set for each tool, and cards wrapped as forms', () => {
    const evidence: FormsEvidence = {
      ...emptyFormsEvidence,
      mcpServers: { forms: { defaultToolsApprovalMode: null, tools: { echo: 'prompt' } } },
      toolCalls: [
        { ...plainCall, approvalCard: 'requestUserInput' },
        { ...plainCall, tool: 'echo', approvalCard: 'elicitation' },
        { ...plainCall, tool: 'deploy', approvalCard: 'requestUserInput' },
      ],
    };
    const findings = diagnoseForms(evidence);
    expect(findings.map((f) => f._tag)).toEqual(['ToolApprovalStillPrompt', 'ToolApprovalWrappedAsForm']);
    const [prompt] = findings;
    expect(prompt?._tag === 'ToolApprovalStillPrompt' && prompt.settings).toEqual([
      { server: 'forms', tool: 'deploy', mode: null, explicit: false, keyPath: 'mcp_servers.forms.default_tools_approval_mode' },
      { server: 'forms', tool: 'echo', mode: 'prompt', explicit: true, keyPath: 'mcp_servers.forms.tools.echo.approval_mode' },
    ]);
    expect(prompt?.where).toEqual(['forms.deploy', 'forms.echo']);
  });

  it('sees a tool call refused under "never", openai/form, timeouts and an unhandled result', () => {
    expect(tags({ ...emptyFormsEvidence, toolCalls: [{ ...plainCall, reachedPlugin: false, error: 'MCP tool call requires approval, but approval policy is never' }] })).toEqual([
      'ToolCallBlockedByNever',
    ]);
    expect(tags({ ...emptyFormsEvidence, forms: [{ ...declinedForm, mode: 'openai/form', sent: false, pluginResult: 'none', pluginError: { code: null, message: 'The MCP client does not support openai/form requests.' } }] })).toEqual([
      'OpenaiFormUnsupported',
    ]);
    expect(tags({ ...emptyFormsEvidence, forms: [{ ...workingForm, clientAnswer: 'none', pluginResult: 'none', pluginError: { code: -32001, message: 'Request timed out' } }] })).toEqual([
      'ElicitationTimedOut',
    ]);
    const lost = only({ ...emptyFormsEvidence, forms: [{ ...workingForm, pluginResult: 'none', toolContinued: false }] }, 'ResultNotHandled');
    expect(lost.problems).toEqual(['AnswerNeverReachedPlugin']);
    const rejected = only({ ...emptyFormsEvidence, forms: [{ ...workingForm, pluginResult: 'accept', pluginError: { code: -32602, message: 'content does not match requested schema' } }] }, 'ResultNotHandled');
    expect(rejected.problems).toEqual(['AnswerRejectedByPlugin']);
    expect(tags({ ...emptyFormsEvidence, openaiFormAdvertised: true })).toEqual(['OpenaiFormAdvertised']);
  });
});

describe('diagnoseForms: laws', () => {
  it('never throws, gives each tag at most once, in FINDING_ORDER, with text', () => {
    fc.assert(
      fc.property(formsEvidenceArbitrary, (evidence) => {
        const found = diagnoseForms(evidence).map((f) => f._tag);
        expect(new Set(found).size).toBe(found.length);
        expect([...found].sort((a, b) => FINDING_ORDER.indexOf(a) - FINDING_ORDER.indexOf(b))).toEqual(found);
        for (const finding of diagnoseForms(evidence)) {
          expect(finding.symptom.length).toBeGreaterThan(0);
          expect(finding.action.length).toBeGreaterThan(0);
          expect(formatFinding(finding)[0]).toContain(finding._tag);
        }
      }),
    );
  });

  it('never blames a policy that forwards forms', () => {
    fc.assert(
      fc.property(formsEvidenceArbitrary, (evidence) => {
        const found = diagnoseForms(evidence).map((f) => f._tag);
        if (evidence.approvalPolicy !== 'never') expect(found).not.toContain('PolicyNeverAutoDeclined');
        if (evidence.approvalPolicy === null || typeof evidence.approvalPolicy === 'string' || evidence.approvalPolicy.granular.mcp_elicitations) {
          expect(found).not.toContain('GranularElicitationsOff');
        }
      }),
    );
  });

  it('does not depend on the order of the forms and tool calls, except for where', () => {
    fc.assert(
      fc.property(formsEvidenceArbitrary, (evidence) => {
        const reversed = { ...evidence, forms: [...evidence.forms].reverse(), toolCalls: [...evidence.toolCalls].reverse() };
        expect(tags(reversed)).toEqual(tags(evidence));
      }),
    );
  });
});

describe('decodeFormsEvidence', () => {
  it('decodes evidence and refuses anything else with paths, never throwing on arbitrary JSON', () => {
    fc.assert(
      fc.property(formsEvidenceArbitrary, (evidence) => {
        expect(decodeFormsEvidence(JSON.parse(JSON.stringify(evidence)))).toEqual(E.right(evidence));
      }),
    );
    expect(decodeFormsEvidence({ ...emptyFormsEvidence, approvalPolicy: 'sometimes' })).toMatchObject(E.left({ _tag: 'InvalidFormsEvidence' }));
    const bad = decodeFormsEvidence({ ...emptyFormsEvidence, forms: [{ ...declinedForm, sent: 'yes' }] });
    expect(E.isLeft(bad) && bad.left.issues).toEqual(['forms.0.sent: expected boolean']);
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        decodeFormsEvidence(json);
      }),
    );
  });
});
