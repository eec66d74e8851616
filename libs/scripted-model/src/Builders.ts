/**
 * Constructors for script values, for tests written in TypeScript rather than JSON.
 *
 * Every function here is pure: plain data in, plain data out.
 *
 * @example
 * ```ts
 * import { callTool, respond, say } from '@wework/scripted-model';
 * const script = [respond(callTool('forms', 'echo', { text: 'hi' })), respond(say('The tool said hi.'))];
 * ```
 */
import type {
  ApplyPatchStep,
  CallFunctionStep,
  CallToolStep,
  FailResponse,
  HangResponse,
  ReasoningStep,
  SandboxPermissions,
  SayStep,
  ShellStep,
  Step,
  StepsResponse,
  ToolArguments,
} from './Script.js';

/** Options shared by every call step. */
export interface CallOptions {
  /** The `call_id` to emit; by default a unique id derived from the response and step index. */
  readonly callId?: string;
}

/** An assistant message. */
export function say(text: string): SayStep {
  return { kind: 'say', text };
}

/** A reasoning item with this summary text. */
export function reasoning(summary: string): ReasoningStep {
  return { kind: 'reasoning', summary };
}

/** A call of tool `tool` on MCP server `server`. */
export function callTool(server: string, tool: string, args: ToolArguments = {}, options: CallOptions = {}): CallToolStep {
  return { kind: 'callTool', server, tool, arguments: args, ...options };
}

/** A call of a plain function tool, optionally in a namespace. */
export function callFunction(
  name: string,
  args: ToolArguments = {},
  options: CallOptions & { readonly namespace?: string } = {},
): CallFunctionStep {
  return { kind: 'callFunction', name, arguments: args, ...options };
}

/** Options of a shell (`exec_command`) call. */
export interface ShellOptions extends CallOptions {
  readonly sandboxPermissions?: SandboxPermissions;
  readonly justification?: string;
  readonly workdir?: string;
}

/** An `exec_command` call running `cmd`. */
export function shell(cmd: string, options: ShellOptions = {}): ShellStep {
  return { kind: 'shell', cmd, ...options };
}

/** An `apply_patch` custom tool call with this patch text. */
export function applyPatch(patch: string, options: CallOptions = {}): ApplyPatchStep {
  return { kind: 'applyPatch', patch, ...options };
}

/** A successful response made of these steps. */
export function respond(...steps: ReadonlyArray<Step>): StepsResponse {
  return { kind: 'steps', steps };
}

/** A response that fails with this HTTP status (400–599) and message. */
export function fail(status: number, message: string): FailResponse {
  return { kind: 'fail', status, message };
}

/** A response whose stream opens and never finishes. */
export function hang(): HangResponse {
  return { kind: 'hang' };
}
