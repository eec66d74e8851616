/**
 * The forms diagnosis of the harness: evidence for `@wework/elicitation-mapper`'s `diagnoseForms`
 * built from a run report, its terminal text, and the `wework-harness diagnose` command.
 */
export { formatDiagnosis } from './FormatDiagnosis.js';
export { pairExchanges, type Exchange, type RpcError, type Sender } from './PluginExchanges.js';
export { evidenceFromReport, type EvidenceSource, type ReportEvidence } from './ReportEvidence.js';
export { CardInput, ReportInput, TurnInput, WireInput, decodeReportInput, type InvalidReport } from './ReportInput.js';
export { DIAGNOSE_USAGE, nodeDiagnoseIo, runDiagnoseCommand, type DiagnoseIo } from './runDiagnoseCommand.js';
