/**
 * `@wework/elicitation-mapper`: MCP elicitation forms ⇄ chat cards, per the Wework plugin forms spec.
 *
 * - For executors and hosts: {@link handleElicitationRequest} (request params → a card, or decline
 *   at once) and {@link responseForCard} (card + the host's answer → the result to send), built
 *   from {@link elicitationToCard}, {@link answersToResult}, the tool-approval mapping and the
 *   URL-mode mapping ({@link checkElicitationUrl}, {@link urlAnswerToResult}, {@link completesUrlCard}).
 * - For plugin authors: {@link requestForm} (send a form only where it can be shown; typed
 *   outcome) and the validators the spec leaves to plugins ({@link validateForm}, ...).
 * - For diagnosing forms that did not work: {@link diagnoseForms} over neutral {@link FormsEvidence},
 *   and the granular approval policy that lets Codex forward forms ({@link weworkGranularApprovalPolicy}).
 *
 * Everything here is pure: no IO, no clock, no process. `requestForm` calls only the server passed in.
 */
export {
  approvalAnswerToResult,
  approvalChoiceOf,
  answersToContent,
  answersToResult,
} from './AnswerMapping.js';
export { answerRefusal, userInputAnswerRefusal, type AnswerableCard, type AnswerableQuestion, type AnswerProblem, type AnswerRefused } from './AnswerRefusal.js';
export {
  defaultAnswers,
  userInputQuestions,
  type AnswerType,
  type ApprovalChoice,
  type ApprovalQuestion,
  type BooleanQuestion,
  type Card,
  type CardQuestion,
  type ElicitationSource,
  type FormCard,
  type FormQuestion,
  type MultiChoiceQuestion,
  type NumberQuestion,
  type OpenUrlQuestion,
  type SingleChoiceQuestion,
  type TextQuestion,
  type ToolApprovalCard,
  type ToolParamDisplay,
  type UrlCard,
  type UrlChoice,
  type UrlTarget,
} from './Card.js';
export { describeApprovalPolicy, forwardsElicitations, isGranularPolicy, weworkGranularApprovalPolicy, type GranularApprovalPolicy } from './ElicitationForwarding.js';
export { cardForRequest, elicitationToCard, urlCardForRequest } from './ElicitationCard.js';
export { CARD_SHOWS, nextCardShow, type CardRefusal, type CardShowStep } from './CardShows.js';
export { hostCardKindOf, hostQuestionsOf, hostUrlOf } from './HostCard.js';
export {
  codexElicitation,
  codexElicitationRequest,
  decodeElicitation,
  decodeElicitationRequest,
  type ElicitationRequest,
  type UrlElicitationRequest,
} from './ElicitationRequest.js';
export {
  acceptResult,
  cancelResult,
  declineResult,
  noUsableAnswerResult,
  openedResult,
  toMcpElicitResult,
  unsupportedResult,
  type AcceptResult,
  type CancelResult,
  type DeclineResult,
  type ElicitResult,
  type FormContent,
  type FormValue,
  type McpElicitResult,
  type OpenedResult,
  type PersistMeta,
} from './ElicitResult.js';
export {
  checkedResponseForCard,
  handleCodexElicitationRequest,
  handleElicitationRequest,
  responseForCard,
  type ElicitationDecision,
  type HostReply,
  type RespondNow,
  type ShowCard,
} from './ElicitationDecision.js';
export {
  checkAllowed,
  checkCustomOption,
  checkRange,
  checkRequired,
  formRulesFromSchema,
  resolveCustomOption,
  validateForm,
  type CustomOptionRule,
  type CustomTextMissing,
  type EmptyValue,
  type FormRules,
  type FormValidationError,
  type InvalidRule,
  type MissingValue,
  type NotAllowed,
  type NotAnInteger,
  type NotAnObject,
  type NumberRange,
  type OutOfRange,
  type WrongType,
} from './FormValidation.js';
export {
  ApprovalCard,
  ElicitationAction,
  FormEvidence,
  FormsEvidence,
  McpErrorEvidence,
  ServerApprovalEvidence,
  ToolCallEvidence,
  decodeFormsEvidence,
  emptyFormsEvidence,
  evidenceIssues,
  type InvalidFormsEvidence,
} from './FormsEvidence.js';
export {
  FINDING_ORDER,
  diagnoseForms,
  formatFinding,
  type ApprovalSetting,
  type FindingText,
  type FormsFinding,
  type FormsFindingTag,
  type ResultProblem,
} from './FormsDiagnosis.js';
export {
  requestForm,
  supportsFormElicitation,
  type ClientLacksFormElicitation,
  type FormAccepted,
  type FormCancelled,
  type FormDeclined,
  type FormElicitingServer,
  type FormFailed,
  type FormOutcome,
  type FormUnsupported,
  type RequestFormOptions,
} from './RequestForm.js';
export { schemaToQuestions } from './SchemaMapping.js';
export {
  approvalChoiceLabels,
  approvalResult,
  MCP_TOOL_CALL_APPROVAL_KIND,
  TOOL_APPROVAL_QUESTION_ID,
  toolApprovalCard,
} from './ToolApproval.js';
export {
  URL_QUESTION_ID,
  checkElicitationUrl,
  completesUrlCard,
  isLoopbackHostname,
  urlAnswerToResult,
  urlCardOf,
  urlChoiceLabels,
  urlChoiceOf,
} from './UrlElicitation.js';
export { MAX_URL_LENGTH } from './Unsupported.js';
export type {
  EmptyOptions,
  InvalidRequest,
  MissingProperties,
  NonStringConst,
  NonStringEnum,
  Unsupported,
  UnsupportedApprovalKind,
  UnsupportedMode,
  UnsupportedOption,
  UnsupportedPropertyType,
  UnsupportedUrl,
  UrlProblem,
} from './Unsupported.js';
