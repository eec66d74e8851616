/**
 * `@wework/scripted-model`: a scripted stand-in for the OpenAI Responses API that Codex uses as its
 * model provider in end-to-end tests. This entry is pure: the script format and its codecs, the
 * event encoder, the per-request decision, queries over recorded requests, and Codex config
 * helpers. The HTTP server is in `@wework/scripted-model/node`.
 *
 * @packageDocumentation
 */
export {
  ModelResponseCodec,
  ScriptCodec,
  StepCodec,
  decodeScript,
  encodeScript,
  formatScriptError,
  parseScript,
  type ApplyPatchStep,
  type CallFunctionStep,
  type CallToolStep,
  type FailResponse,
  type HangResponse,
  type ModelResponse,
  type ModelResponseJson,
  type ReasoningStep,
  type SandboxPermissions,
  type SayStep,
  type Script,
  type ScriptDecodeError,
  type ScriptError,
  type ScriptJsonSyntaxError,
  type ShellStep,
  type Step,
  type StepJson,
  type StepsResponse,
  type ToolArguments,
} from './Script.js';
export { applyPatch, callFunction, callTool, fail, hang, reasoning, respond, say, shell, type CallOptions, type ShellOptions } from './Builders.js';
export {
  argumentsJson,
  defaultCallId,
  errorBody,
  formatSse,
  formatSseEvent,
  hangEvents,
  mcpNamespace,
  outputItem,
  responseEvents,
  responseId,
  textDeltas,
  type ErrorBody,
  type OutputItem,
  type ResponseContext,
  type ResponseEvent,
} from './ResponseEvents.js';
export { RESPONSES_PATH, ResponsesRequestBody, decide, rejectionReply, type Decision, type IncomingRequest, type Reply } from './Dispatch.js';
export {
  REDACTED,
  describeRejection,
  isCredentialHeader,
  rejectionStatus,
  sanitizeHeaders,
  type RecordedRequest,
  type RequestOutcome,
  type RequestRejection,
} from './RecordedRequest.js';
export {
  assistantMessages,
  contentText,
  functionCallOutputs,
  historyCalls,
  imagesAttached,
  inputItems,
  toolsOffered,
  userMessages,
  skillsAvailable,
  type AttachedImage,
  type AvailableSkill,
  type FunctionCallOutput,
  type HasBody,
  type HistoryCall,
  type InputItem,
  type OfferedTool,
} from './RequestQueries.js';
export {
  failFastFeatures,
  modelProviderSettings,
  scriptedModelCodexConfig,
  withScriptedModel,
  type FailFastFeatures,
  type ModelProviderOptions,
  type ModelProviderSettings,
  type ScriptedModelCodexConfig,
  type ScriptedModelConfigOptions,
} from './ProviderConfig.js';
