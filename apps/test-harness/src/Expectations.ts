/**
 * Evaluates a scenario's `expect` block, and the built-in checks every run gets, against the report.
 *
 * Every function here is pure.
 */
import { functionCallOutputs, toolsOffered, type RecordedRequest } from '@wework/scripted-model';
import type { CardEntry, CheckResult, TurnReport } from './Report.js';
import type { ExpectSpec } from './Scenario.js';
import type { ProxyLogEntry } from './proxy/index.js';
import { isRecord } from '@wework/decode-issues';

/** What the checks read. */
export interface CheckInput {
  readonly turns: ReadonlyArray<TurnReport>;
  readonly cards: ReadonlyArray<CardEntry>;
  readonly modelRequests: ReadonlyArray<RecordedRequest>;
  readonly plugins: Readonly<Record<string, ReadonlyArray<ProxyLogEntry>>>;
}

/** Whether `wanted` occurs in `seen` in order (not necessarily adjacent). */
export function isSubsequence(wanted: ReadonlyArray<string>, seen: ReadonlyArray<string>): boolean {
  let i = 0;
  for (const item of seen) if (i < wanted.length && item === wanted[i]) i += 1;
  return i === wanted.length;
}

/** Methods Codex sent to a plugin (requests and notifications), in order. */
export function methodsReceivedByPlugin(entries: ReadonlyArray<ProxyLogEntry>): ReadonlyArray<string> {
  return entries.flatMap((entry) =>
    entry.direction === 'client-to-server' && 'message' in entry && isRecord(entry.message) && typeof entry.message['method'] === 'string' ? [entry.message['method']] : [],
  );
}

/** The built-in checks: each turn ended as expected and every card had a fitting scripted answer. */
export function builtInChecks(input: CheckInput): ReadonlyArray<CheckResult> {
  const turnChecks = input.turns.map((turn, i) => ({
    name: `turn ${i + 1} ${turn.expectedStatus}`,
    passed: turn.status === turn.expectedStatus,
    detail: `status ${turn.status}${turn.error === null || turn.error === undefined ? '' : `, error ${JSON.stringify(turn.error)}`}`,
  }));
  const cardChecks = input.cards.flatMap((card, i) =>
    card.problem === undefined ? [] : [{ name: `card ${i + 1} (${card.method}) answered as scripted`, passed: false, detail: card.problem }],
  );
  return [...turnChecks, ...cardChecks];
}

/** The checks of the scenario's `expect` block. */
export function expectationChecks(expect: ExpectSpec | undefined, input: CheckInput): ReadonlyArray<CheckResult> {
  if (expect === undefined) return [];
  const checks: CheckResult[] = [];
  const lastTurn = input.turns[input.turns.length - 1];
  const finalText = (lastTurn?.agentMessages ?? []).join('\n');
  for (const text of expect.finalMessageContains ?? []) {
    checks.push({ name: `final message contains ${JSON.stringify(text)}`, passed: finalText.includes(text), detail: `final message: ${JSON.stringify(finalText)}` });
  }
  if (expect.serverRequests !== undefined) {
    const seen = input.cards.map((card) => card.method);
    checks.push({ name: `server requests ${expect.serverRequests.join(' → ')}`, passed: isSubsequence(expect.serverRequests, seen), detail: `seen: ${seen.join(', ') || 'none'}` });
  }
  if (expect.toolsOffered !== undefined) {
    const offered = new Set(input.modelRequests.flatMap((request) => toolsOffered(request).map((tool) => (tool.namespace === undefined ? tool.name : `${tool.namespace}.${tool.name}`))));
    for (const tool of expect.toolsOffered) {
      checks.push({ name: `model was offered ${tool}`, passed: offered.has(tool), detail: `offered: ${[...offered].join(', ')}` });
    }
  }
  if (expect.toolOutputContains !== undefined) {
    const outputs = input.modelRequests.flatMap((request) => functionCallOutputs(request).map((output) => output.text));
    for (const text of expect.toolOutputContains) {
      checks.push({ name: `model received a tool output containing ${JSON.stringify(text)}`, passed: outputs.some((o) => o.includes(text)), detail: `tool outputs: ${JSON.stringify(outputs)}` });
    }
  }
  for (const [plugin, methods] of Object.entries(expect.pluginReceived ?? {})) {
    const received = methodsReceivedByPlugin(input.plugins[plugin] ?? []);
    checks.push({ name: `plugin ${plugin} received ${methods.join(' → ')}`, passed: isSubsequence(methods, received), detail: `received: ${received.join(', ') || 'nothing'}` });
  }
  return checks;
}
