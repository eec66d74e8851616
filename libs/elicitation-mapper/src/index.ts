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
export { answersToContent } from './AnswerMapping.js';
export { answerRefusal, userInputAnswerRefusal } from './AnswerRefusal.js';
export { defaultAnswers, userInputQuestions, type Card, type FormCard } from './Card.js';
export {
  describeApprovalPolicy,
  forwardsElicitations,
  isGranularPolicy,
  weworkGranularApprovalPolicy,
} from './ElicitationForwarding.js';
export { elicitationToCard } from './ElicitationCard.js';
export { nextCardShow, type CardRefusal } from './CardShows.js';
export { hostCardKindOf, hostQuestionsOf, hostUrlOf } from './HostCard.js';
export { type ElicitationRequest } from './ElicitationRequest.js';
export { cancelResult, toMcpElicitResult, type ElicitResult } from './ElicitResult.js';
export {
  checkedResponseForCard,
  handleCodexElicitationRequest,
  handleElicitationRequest,
  responseForCard,
  type HostReply,
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
  type FormRules,
} from './FormValidation.js';
export {
  ElicitationAction,
  FormEvidence,
  FormsEvidence,
  ServerApprovalEvidence,
  ToolCallEvidence,
  decodeFormsEvidence,
  emptyFormsEvidence,
  evidenceIssues,
} from './FormsEvidence.js';
export { FINDING_ORDER, diagnoseForms, formatFinding, type FormsFinding } from './FormsDiagnosis.js';
export { requestForm } from './RequestForm.js';
export { checkElicitationUrl, completesUrlCard } from './UrlElicitation.js';
