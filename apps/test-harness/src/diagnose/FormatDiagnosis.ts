/**
 * The terminal text of `wework-harness diagnose`: what was in force, what happened to each form and
 * tool call, and the findings with their actions.
 *
 * Every function here is pure: evidence and findings in, lines out.
 */
import { describeApprovalPolicy, formatFinding, type FormEvidence, type FormsFinding } from '@wework/elicitation-mapper';
import type { EvidenceSource, ReportEvidence } from './ReportEvidence.js';

const SOURCE: Readonly<Record<EvidenceSource, string>> = {
  wire: 'the app-server\'s thread/start answer and turn/start params',
  report: 'the report',
  scenario: 'the scenario file',
  unknown: 'nowhere: not in the report, and no scenario file',
};

const where = (server: string, tool: string | null): string => (tool === null ? server : `${server}.${tool}`);

function formLine(form: FormEvidence): string {
  const steps = [
    form.sent ? `mode ${JSON.stringify(form.mode)}` : `not sent (${form.pluginError?.message ?? 'refused by the plugin\'s SDK'})`,
    form.duringToolCall === false ? 'outside any tool call' : undefined,
    form.sent ? (form.reachedClient ? `reached the client${form.schemaSupported === false ? ' (schema not supported)' : ''}, answered ${form.clientAnswer}` : 'did not reach the client') : undefined,
    form.sent ? `plugin got ${form.pluginError === null ? form.pluginResult : `error ${form.pluginError.code ?? ''} ${form.pluginError.message}`.replace('  ', ' ')}` : undefined,
  ].filter((step): step is string => step !== undefined);
  return `  ${where(form.server, form.tool)} ${JSON.stringify(form.message)}: ${steps.join('; ')}`;
}

/**
 * The lines of a diagnosis.
 *
 * @example
 * ```ts
 * formatDiagnosis('never.report.json', evidenceFromReport(report), diagnoseForms(evidence)).join('\n');
 * ```
 */
export function formatDiagnosis(title: string, { evidence, sources }: ReportEvidence, findings: ReadonlyArray<FormsFinding>): ReadonlyArray<string> {
  const lines = [`diagnosis of ${title}`];
  lines.push(`approval policy: ${evidence.approvalPolicy === null ? 'unknown' : describeApprovalPolicy(evidence.approvalPolicy)} (from ${SOURCE[sources.approvalPolicy]})`);
  lines.push(
    `features.tool_call_mcp_elicitation: ${evidence.toolCallMcpElicitation === null ? 'not set' : String(evidence.toolCallMcpElicitation)} (from ${SOURCE[sources.config]})`,
  );
  for (const [name, server] of Object.entries(evidence.mcpServers)) {
    const tools = Object.entries(server.tools).map(([tool, mode]) => `, tools.${tool}.approval_mode = ${JSON.stringify(mode)}`);
    lines.push(`mcp_servers.${name}: default_tools_approval_mode = ${server.defaultToolsApprovalMode === null ? '(not set)' : JSON.stringify(server.defaultToolsApprovalMode)}${tools.join('')}`);
  }
  lines.push(`openai/form advertised in initialize: ${evidence.openaiFormAdvertised === null ? 'unknown' : evidence.openaiFormAdvertised ? 'yes' : 'no'}`);
  lines.push(`tool calls: ${evidence.toolCalls.length === 0 ? 'none' : ''}`);
  for (const call of evidence.toolCalls) {
    lines.push(`  ${call.server}.${call.tool}: ${call.approvalCard === 'none' ? 'no approval card' : `approval card (${call.approvalCard})`}${call.reachedPlugin ? '' : ', did not reach the plugin'}${call.error === null ? '' : `, error: ${call.error}`}`);
  }
  lines.push(`forms: ${evidence.forms.length === 0 ? 'none' : ''}`);
  for (const form of evidence.forms) lines.push(formLine(form));
  lines.push('');
  for (const finding of findings) lines.push(...formatFinding(finding), '');
  lines.push(findings.length === 0 ? 'no problem found' : `${findings.length} finding${findings.length === 1 ? '' : 's'}: ${findings.map((f) => f._tag).join(', ')}`);
  return lines.map((line) => line.trimEnd());
}
