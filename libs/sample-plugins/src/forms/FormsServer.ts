/**
 * The forms plugin: a real MCP server whose tools ask the user through form elicitation
 * (`server.server.elicitInput({ mode: 'form', ... })`) and report exactly what came back.
 * High-impact work (deploying, clearing a cache, writing a release note) happens only after an
 * accepted, valid answer; after `decline`, `cancel`, an error or an unsupported client, nothing
 * is done. The work is simulated: it is appended to an in-process list of performed actions,
 * which the `performed_actions` tool returns, so a test can prove nothing happened.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  ClearCacheAnswer,
  CustomStrategyAnswer,
  DeploymentTargetAnswer,
  ReleaseConfigurationAnswer,
  ScaleServiceAnswer,
  ReleaseNoteAnswer,
  RolloutRegionsAnswer,
  StrategyAnswer,
  clearCacheForm,
  customStrategyForm,
  deploymentTargetForm,
  describeContentTypes,
  releaseConfigurationForm,
  scaleServiceForm,
  releaseNoteForm,
  resolveCustomStrategy,
  rolloutRegionsForm,
  strategyForm,
  type FormRequest,
} from './FormRequests.js';
import { formatFormsReport, type ElicitationOutcome } from './FormsReport.js';
import { NumericChoiceAnswer, formWithoutProperties, numericChoicesForm, type UnsupportedFormRequest } from './UnsupportedFormRequests.js';
import { CONNECT_ACCOUNT_URL, connectAccountRequest } from './UrlRequests.js';

/** The tools of the forms plugin, in registration order. */
export const FORMS_TOOLS = [
  'echo',
  'choose_strategy',
  'deploy',
  'clear_cache',
  'write_release_note',
  'handle_with_strategy',
  'roll_out',
  'performed_actions',
  'configure_release',
  'scale_with_numeric_choices',
  'ask_without_properties',
  'scale_service',
  'connect_account',
] as const;

/** Name of a forms plugin tool. */
export type FormsToolName = (typeof FORMS_TOOLS)[number];

/** Options of {@link createFormsServer}. */
export interface FormsServerOptions {
  /** How long to wait for the user's answer; default: the MCP SDK's request timeout (60 s). */
  readonly elicitationTimeoutMs?: number;
}

/** A forms plugin server and the high-impact actions it has performed so far. */
export interface FormsPlugin {
  readonly server: McpServer;
  /** Actions performed in this process, in order (e.g. `deploy web to production`). */
  performedActions(): ReadonlyArray<string>;
}

function textResult(text: string, isError = false): CallToolResult {
  return isError ? { content: [{ type: 'text', text }], isError } : { content: [{ type: 'text', text }] };
}

function outcomeOf(result: ElicitResult): ElicitationOutcome {
  switch (result.action) {
    case 'accept':
      return result.content === undefined ? { action: 'accept' } : { action: 'accept', content: result.content };
    case 'decline':
      return { action: 'decline' };
    case 'cancel':
      return { action: 'cancel' };
  }
}

/**
 * Creates the forms plugin server (not yet connected to a transport).
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * const { server } = createFormsServer();
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createFormsServer(options: FormsServerOptions = {}): FormsPlugin {
  const server = new McpServer({ name: 'wework-forms-plugin', version: '0.1.0' }, { capabilities: { tools: {} } });
  const actions: string[] = [];
  const requestOptions = options.elicitationTimeoutMs === undefined ? undefined : { timeout: options.elicitationTimeoutMs };

  /**
   * Asks with `form`; on an accepted answer that decodes with `answer`, runs `onAccept`
   * (which returns the outcome text). Every other path reports and stops. `describeReceived`
   * appends a description of the accepted content as received (for example its types).
   */
  async function ask<S extends z.ZodType>(
    form: FormRequest | UnsupportedFormRequest,
    answer: S,
    notDone: string,
    onAccept: (value: z.infer<S>) => { readonly outcome: string; readonly isError?: boolean },
    describeReceived: (content: Readonly<Record<string, unknown>>) => string = () => '',
  ): Promise<CallToolResult> {
    if (server.server.getClientCapabilities()?.elicitation?.form === undefined) {
      return textResult(formatFormsReport({ elicitation: { action: 'unsupported' }, outcome: `${notDone} (the client cannot show forms)` }), true);
    }
    let result: ElicitResult;
    try {
      // The unsupported forms deliberately break the SDK's form types; the request is sent as is.
      result = await server.server.elicitInput(form as FormRequest, requestOptions);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return textResult(formatFormsReport({ elicitation: { action: 'error', message }, outcome: `${notDone} (the form failed)` }), true);
    }
    const elicitation = outcomeOf(result);
    if (result.action === 'decline') return textResult(formatFormsReport({ elicitation, outcome: `${notDone} (the user declined)` }));
    if (result.action === 'cancel') return textResult(formatFormsReport({ elicitation, outcome: `${notDone} (the user cancelled)` }));
    const received = describeReceived(result.content ?? {});
    const decoded = answer.safeParse(result.content ?? {});
    if (!decoded.success) {
      const reason = decoded.error.issues.map((issue) => `${issue.path.join('.') || 'content'}: ${issue.message}`).join('; ');
      return textResult(formatFormsReport({ elicitation, outcome: `${notDone} (invalid answer: ${reason})${received}` }), true);
    }
    const done = onAccept(decoded.data);
    return textResult(formatFormsReport({ elicitation, outcome: `${done.outcome}${received}` }), done.isError ?? false);
  }

  const perform = (action: string): string => {
    actions.push(action);
    return action;
  };

  server.registerTool(
    'echo',
    { description: 'Returns its text unchanged. Never asks the user anything.', inputSchema: { text: z.string().describe('Text to return') } },
    ({ text }) => textResult(text),
  );

  server.registerTool(
    'choose_strategy',
    { description: 'Asks the user how to continue (fast, safe, or ask before each step) and reports the choice.' },
    () => ask(strategyForm, StrategyAnswer, 'no strategy chosen', ({ strategy }) => ({ outcome: `continuing with strategy ${strategy}` })),
  );

  server.registerTool(
    'deploy',
    {
      description: 'Deploys a service after the user picks the target environment (staging or production).',
      inputSchema: { service: z.string().default('web').describe('Service to deploy') },
    },
    ({ service }) =>
      ask(deploymentTargetForm, DeploymentTargetAnswer, 'nothing was deployed', ({ target }) => ({ outcome: perform(`deployed ${service} to ${target}`) })),
  );

  server.registerTool(
    'clear_cache',
    { description: 'Clears the workspace cache after the user confirms.' },
    () =>
      ask(clearCacheForm, ClearCacheAnswer, 'the cache was not cleared', ({ confirm }) =>
        confirm ? { outcome: perform('cleared the workspace cache') } : { outcome: 'the cache was not cleared (the user answered false)' },
      ),
  );

  server.registerTool(
    'write_release_note',
    { description: 'Asks for a release note and writes it to the release record.' },
    () =>
      ask(releaseNoteForm, ReleaseNoteAnswer, 'no release note was written', ({ releaseNote }) =>
        releaseNote.trim() === ''
          ? { outcome: 'no release note was written (the note was empty)', isError: true }
          : { outcome: perform(`wrote release note: ${releaseNote}`) },
      ),
  );

  server.registerTool(
    'handle_with_strategy',
    { description: 'Asks for a handling strategy, with a custom option described in a second field, then applies it.' },
    () =>
      ask(customStrategyForm, CustomStrategyAnswer, 'nothing was handled', (answer) => {
        const resolved = resolveCustomStrategy(answer);
        return resolved.ok
          ? { outcome: perform(`handled with ${resolved.handling}`) }
          : { outcome: `nothing was handled (invalid answer: ${resolved.reason})`, isError: true };
      }),
  );

  server.registerTool(
    'roll_out',
    { description: 'Rolls the release out to one to three regions the user picks (EU, US, Asia, South America).' },
    () =>
      ask(rolloutRegionsForm, RolloutRegionsAnswer, 'nothing was rolled out', ({ regions }) => ({ outcome: perform(`rolled out to ${regions.join(', ')}`) })),
  );

  server.registerTool(
    'performed_actions',
    { description: 'Lists the high-impact actions this plugin process has performed, as a JSON array.' },
    () => textResult(JSON.stringify(actions)),
  );

  server.registerTool(
    'configure_release',
    { description: 'Asks for the release channel, whether to notify, the replica count (1-9) and an optional note, then configures the release and reports the values and their types exactly as received.' },
    () =>
      ask(releaseConfigurationForm, ReleaseConfigurationAnswer, 'the release was not configured', ({ channel, notify, replicas, note }) => ({
        outcome: perform(`configured release: channel=${channel} notify=${String(notify)} replicas=${replicas}${note === undefined ? '' : ` note=${JSON.stringify(note)}`}`),
      }), (content) => ` | types ${JSON.stringify(describeContentTypes(content))}`),
  );

  server.registerTool(
    'scale_with_numeric_choices',
    { description: 'Asks for a replica count as a single choice with number values (outside the forms spec) and reports the answer.' },
    () =>
      ask(numericChoicesForm, NumericChoiceAnswer, 'no replica count chosen', ({ replicas }) => ({ outcome: `replicas chosen: ${replicas}` }), (content) => ` | types ${JSON.stringify(describeContentTypes(content))}`),
  );

  server.registerTool(
    'ask_without_properties',
    { description: 'Asks with a form schema that has no properties (outside the forms spec) and reports what came back.' },
    () => ask(formWithoutProperties, z.record(z.string(), z.unknown()), 'nothing was described', (content) => ({ outcome: `received ${JSON.stringify(content)}` })),
  );

  server.registerTool(
    'scale_service',
    { description: 'Asks which service to scale and, optionally, to how many replicas (1-9), then scales it and reports the values and their types exactly as received.' },
    () =>
      ask(scaleServiceForm, ScaleServiceAnswer, 'the service was not scaled', ({ service, replicas }) => ({
        outcome: perform(`scaled ${service} to ${replicas === undefined ? 'its current count' : `${replicas} replicas`}`),
      }), (content) => ` | types ${JSON.stringify(describeContentTypes(content))}`),
  );

  let urlElicitations = 0;
  server.registerTool(
    'connect_account',
    {
      description:
        'Asks the user to open a sign-in link (URL-mode elicitation) to connect an account; after an accepted answer the sign-in is simulated as completed and the plugin sends notifications/elicitation/complete.',
      inputSchema: { url: z.string().default(CONNECT_ACCOUNT_URL).describe('The sign-in address to ask the user to open') },
    },
    async ({ url }) => {
      const notDone = 'no account was connected';
      if (server.server.getClientCapabilities()?.elicitation?.url === undefined) {
        return textResult(formatFormsReport({ elicitation: { action: 'unsupported' }, outcome: `${notDone} (the client cannot open links)` }), true);
      }
      urlElicitations += 1;
      const request = connectAccountRequest(url, `connect-${urlElicitations}`);
      let result: ElicitResult;
      try {
        result = await server.server.elicitInput(request, requestOptions);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        return textResult(formatFormsReport({ elicitation: { action: 'error', message }, outcome: `${notDone} (the request failed)` }), true);
      }
      const elicitation = outcomeOf(result);
      if (result.action === 'decline') return textResult(formatFormsReport({ elicitation, outcome: `${notDone} (the user declined)` }));
      if (result.action === 'cancel') return textResult(formatFormsReport({ elicitation, outcome: `${notDone} (the user cancelled)` }));
      // The sign-in itself happens in the user's browser; here it is simulated as done, and the client told so.
      await server.server.createElicitationCompletionNotifier(request.elicitationId)();
      return textResult(formatFormsReport({ elicitation, outcome: perform(`connected the account (${request.elicitationId} completed)`) }));
    },
  );

  return { server, performedActions: () => [...actions] };
}
