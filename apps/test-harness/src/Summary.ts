/**
 * A readable summary of a report: the transcript of each turn, the cards and answers, the checks.
 * Every function here is pure.
 */
import type { ScenarioReport } from './Report.js';
import { isRecord } from '@wework/decode-issues';

function describeItem(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  switch (item['type']) {
    case 'mcpToolCall': {
      const result = isRecord(item['result']) && Array.isArray(item['result']['content']) ? item['result']['content'] : [];
      const text = result.flatMap((part: unknown) => (isRecord(part) && typeof part['text'] === 'string' ? [part['text']] : [])).join(' ');
      const failure = isRecord(item['error']) ? ` ✗ ${String(item['error']['message'])}` : '';
      return `  ⚙ ${String(item['server'])}.${String(item['tool'])} ${JSON.stringify(item['arguments'])} → ${text || String(item['status'])}${failure}`;
    }
    case 'commandExecution':
      return `  $ ${String(item['command'])} (${String(item['status'])})`;
    case 'fileChange':
      return `  ✎ file change (${String(item['status'])})`;
    default:
      return undefined;
  }
}

/** Formats a report for a terminal. */
export function formatSummary(report: ScenarioReport): string {
  const lines = [`scenario: ${report.scenario}`];
  report.turns.forEach((turn, i) => {
    lines.push(`› user: ${turn.input}`);
    for (const item of turn.items) {
      const line = describeItem(item);
      if (line !== undefined) lines.push(line);
    }
    for (const message of turn.agentMessages) lines.push(`‹ assistant: ${message}`);
    lines.push(`  turn ${i + 1}: ${turn.status} in ${turn.durationMs} ms`);
  });
  for (const card of report.cards) {
    lines.push(`  card ${card.method} → ${JSON.stringify(card.response)}${card.problem === undefined ? '' : ` (${card.problem})`}`);
  }
  for (const check of report.checks) lines.push(`${check.passed ? '✓' : '✗'} ${check.name}${check.passed ? '' : ` — ${check.detail}`}`);
  if (report.error !== undefined) lines.push(`✗ ${report.error}`);
  lines.push(report.passed ? 'PASSED' : 'FAILED');
  return lines.join('\n');
}
