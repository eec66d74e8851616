/**
 * `@wework/test-harness`: run scenarios against the real codex app-server with a scripted model and
 * real MCP plugins, programmatically or with the `wework-harness` command.
 *
 * @example
 * ```ts
 * import { parseScenario, runScenario } from '@wework/test-harness';
 * const scenario = parseScenario(scenarioJsonText);
 * if (scenario._tag === 'Right') {
 *   const report = await runScenario({ scenario: scenario.right, baseDir: process.cwd() });
 *   console.log(report.passed, report.turns[0]?.agentMessages);
 * }
 * ```
 */
export { runScenario, type RunScenarioOptions } from './runScenario.js';
export {
  AnswerSpec,
  ExpectSpec,
  PluginSpec,
  ScenarioCodec,
  ToolsApproval,
  TurnSpec,
  UserSpec,
  decodeScenario,
  formatScenarioError,
  parseScenario,
  type Scenario,
  type ScenarioError,
} from './Scenario.js';
export { answerCard, questionIds, type AnswerSource, type CardAnswer, type CardRequest } from './ScriptedUser.js';
export { deepMerge, harnessCodexConfig, harnessThreadParams, type HarnessConfigOptions, type McpServerEntry } from './CodexConfig.js';
export { builtInChecks, expectationChecks, isSubsequence, methodsReceivedByPlugin, type CheckInput } from './Expectations.js';
export { formatSummary } from './Summary.js';
export type { CardEntry, CheckResult, ScenarioReport, TurnReport, WireEntry } from './Report.js';
export { proxiedCommand, proxyMainPath, decodeProxyLog, type ProxyLogEntry } from './proxy/index.js';
export { evidenceFromReport, decodeReportInput, formatDiagnosis, runDiagnoseCommand, type ReportEvidence } from './diagnose/index.js';
export {
  defaultServePath,
  firstOptionPolicy,
  openExecutorWebSocket,
  startExecutorHost,
  type CardPolicy,
  type ExecutorHostClient,
  type HostCardQuestion,
  type ExecutorHostOptions,
  type HostDirection,
  type HostRequestError,
  type HostRequestParams,
  type HostTranscriptEntry,
  type HostWireMessage,
} from './host/ExecutorHostClient.js';
