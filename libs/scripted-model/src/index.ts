/**
 * `@wework/scripted-model`: a scripted stand-in for the OpenAI Responses API that Codex uses as its
 * model provider in end-to-end tests. This entry is pure: the script type and its decoders, the
 * builders, queries over recorded requests, and Codex config helpers. The HTTP server is in
 * `@wework/scripted-model/node`.
 *
 * @packageDocumentation
 */
export {
  decodeScript,
  encodeScript,
  formatScriptError,
  parseScript,
  type ModelResponse,
  type Script,
  type ScriptError,
  type Step,
} from './Script.js';
export { applyPatch, callFunction, callTool, fail, hang, reasoning, respond, say, shell } from './Builders.js';
export { type RecordedRequest } from './RecordedRequest.js';
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
  type HasBody,
} from './RequestQueries.js';
export { modelProviderSettings, scriptedModelCodexConfig, withScriptedModel, type ScriptedModelConfigOptions } from './ProviderConfig.js';
