/**
 * Node entry of `@wework/scripted-model`: the loopback HTTP server.
 *
 * @packageDocumentation
 */
export { startScriptedModel, type ScriptedModel, type ScriptedModelOptions } from './ScriptedModelServer.js';
