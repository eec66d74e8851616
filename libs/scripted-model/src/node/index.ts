/**
 * Node entry of `@wework/scripted-model`: the loopback HTTP server, and the machine lock of end-to-end
 * tests that must not overlap (a Codex login).
 *
 * @packageDocumentation
 */
export { startScriptedModel, type ScriptedModel, type ScriptedModelOptions } from './ScriptedModelServer.js';
export { holdMachineLock, withMachineLock, type MachineLockOptions } from './MachineLock.js';
