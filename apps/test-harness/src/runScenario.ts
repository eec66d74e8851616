/**
 * Runs one scenario against the real `codex app-server`: an isolated CODEX_HOME/HOME, the scripted
 * model, the scenario's plugins behind the recording proxy, its turns and its scripted user, and
 * returns the report. Everything it starts is stopped before it returns, whatever happened.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import {
  ItemCommandExecutionRequestApproval,
  ItemFileChangeRequestApproval,
  ItemPermissionsRequestApproval,
  ItemToolRequestUserInput,
  McpServerElicitationRequest,
  McpServerStartupStatusUpdated,
  ThreadStart,
  TurnInterrupt,
  toWireJson,
  type AnyServerRequest,
  type ParamsOf,
} from '@wework/codex-protocol';
import { describeErrors, formatDecodeIssues } from '@wework/decode-issues';
import { checkCodexVersion, describeClientError, describeCodexVersionCheck, describeMcpStartupError, isTurnEnded, runTurn, trackMcpStartup, type AppServerClient, type CodexVersionCheck } from '@wework/app-server-client';
import { spawnAppServer, type SpawnedAppServer } from '@wework/app-server-client/node';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { checkPluginBuilt } from '@wework/sample-plugins';
import { harnessCodexConfig, harnessThreadParams, type McpServerEntry } from './CodexConfig.js';
import { builtInChecks, expectationChecks } from './Expectations.js';
import { decodeProxyLog, proxiedCommand, type ProxyLogEntry } from './proxy/index.js';
import type { CardEntry, ScenarioReport, TurnReport, WireEntry } from './Report.js';
import type { PluginSpec, Scenario, TurnSpec } from './Scenario.js';
import { answerCard } from './ScriptedUser.js';

/** Options of {@link runScenario}. */
export interface RunScenarioOptions {
  readonly scenario: Scenario;
  /** Directory relative plugin paths resolve against (the scenario file's directory). */
  readonly baseDir: string;
  /** Base environment of the app-server and plugins; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Keep the temporary CODEX_HOME/HOME instead of removing it (its path is in the report). */
  readonly keepWorkDir?: boolean;
  /** Progress lines, for a person watching. */
  readonly onProgress?: (line: string) => void;
  /** Default per-turn timeout; default 60 000 ms. */
  readonly turnTimeoutMs?: number;
  /** How long the plugins may take to become ready before the first turn; default 30 000 ms. */
  readonly pluginStartTimeoutMs?: number;
  /** A Codex to run instead of the installed `@openai/codex`: its native binary or npm wrapper script (`--codex`). */
  readonly codexPath?: string;
}

const DEFAULT_TURN_TIMEOUT_MS = 60_000;
const DEFAULT_PLUGIN_START_TIMEOUT_MS = 30_000;

interface Dirs {
  readonly root: string;
  readonly codexHome: string;
  readonly home: string;
  readonly workspace: string;
  readonly pluginLogs: string;
}

async function makeDirs(): Promise<Dirs> {
  const root = await mkdtemp(join(tmpdir(), 'wework-harness-'));
  const dirs = { root, codexHome: join(root, 'codex-home'), home: join(root, 'home'), workspace: join(root, 'workspace'), pluginLogs: join(root, 'plugins') };
  await Promise.all([dirs.codexHome, dirs.home, dirs.workspace, dirs.pluginLogs].map((dir) => mkdir(dir, { recursive: true })));
  return dirs;
}

function pluginCommand(plugin: PluginSpec): E.Either<string, { readonly command: string; readonly args: ReadonlyArray<string> }> {
  if ('sample' in plugin) {
    const built = checkPluginBuilt(plugin.sample);
    return built.ok ? E.right(built.command) : E.left(`sample plugin "${plugin.sample}" is not built (${built.error.path}); run the build first`);
  }
  return E.right({ command: plugin.command, args: plugin.args ?? [] });
}

function mcpServers(plugins: ReadonlyArray<PluginSpec>, baseDir: string, logDir: string): E.Either<string, Record<string, McpServerEntry>> {
  const servers: Record<string, McpServerEntry> = {};
  for (const plugin of plugins) {
    const command = pluginCommand(plugin);
    if (E.isLeft(command)) return command;
    const line = plugin.record === false ? command.right : proxiedCommand({ ...command.right, logFile: join(logDir, `${plugin.name}.jsonl`) });
    const cwd = plugin.cwd === undefined ? baseDir : isAbsolute(plugin.cwd) ? plugin.cwd : resolve(baseDir, plugin.cwd);
    servers[plugin.name] = {
      command: line.command,
      args: line.args,
      cwd,
      ...(plugin.env === undefined ? {} : { env: plugin.env }),
      default_tools_approval_mode: plugin.toolsApproval ?? 'approve',
    };
  }
  return E.right(servers);
}

async function readPluginLogs(plugins: ReadonlyArray<PluginSpec>, logDir: string): Promise<Record<string, ReadonlyArray<ProxyLogEntry>>> {
  const logs: Record<string, ReadonlyArray<ProxyLogEntry>> = {};
  for (const plugin of plugins) {
    if (plugin.record === false) continue;
    const text = await readFile(join(logDir, `${plugin.name}.jsonl`), 'utf8').catch(() => '');
    const decoded = decodeProxyLog(text);
    logs[plugin.name] = E.isRight(decoded) ? decoded.right : [];
  }
  return logs;
}

const cardDescriptors: ReadonlyArray<AnyServerRequest> = [
  McpServerElicitationRequest,
  ItemToolRequestUserInput,
  ItemCommandExecutionRequestApproval,
  ItemFileChangeRequestApproval,
  ItemPermissionsRequestApproval,
];

/** Mutable state of one run, owned by {@link runScenario}. */
interface RunState {
  readonly started: number;
  readonly wire: WireEntry[];
  readonly cards: CardEntry[];
  readonly events: unknown[];
  readonly consumed: Set<number>;
  /** When Codex reported each plugin's MCP startup settled, in ms since the run started. */
  readonly pluginsReadyMs: Map<string, number>;
}

const since = (state: RunState): number => Math.round((performance.now() - state.started) * 10) / 10;

function attach(client: AppServerClient, scenario: Scenario, state: RunState): void {
  client.onEvent((event) => state.events.push(event));
  client.on(McpServerStartupStatusUpdated, (params) => {
    if (params.status !== 'starting') state.pluginsReadyMs.set(params.name, since(state));
  });
  for (const descriptor of cardDescriptors) {
    client.onServerRequest(descriptor, (params: ParamsOf<typeof descriptor>) => {
      const answer = answerCard(scenario.user, state.consumed, { method: descriptor.method, params });
      if (answer.source._tag === 'Ordered') state.consumed.add(answer.source.index);
      const checked = descriptor.result.decode(answer.response);
      const problem = E.isLeft(checked) ? `the scripted answer is not a valid ${descriptor.method} response: ${formatDecodeIssues(describeErrors(checked.left, 'response'))}` : answer.problem;
      // The report is JSON: decoded params hold bigints where Codex's types say i64 (an array's minItems, ...).
      state.cards.push({ atMs: since(state), method: descriptor.method, params: toWireJson(params), response: answer.response, source: answer.source, ...(problem === undefined ? {} : { problem }) });
      return E.isLeft(checked) ? E.left({ code: -32603, message: 'the harness has no valid scripted answer for this request' }) : E.right(checked.right);
    });
  }
}

async function runScenarioTurn(server: SpawnedAppServer, threadId: string, turn: TurnSpec, timeoutMs: number): Promise<TurnReport> {
  const t0 = performance.now();
  const expectedStatus = turn.expectStatus ?? 'completed';
  const limitMs = turn.timeoutMs ?? timeoutMs;
  let interrupt: NodeJS.Timeout | undefined;
  const outcome = await runTurn(
    server.client,
    { threadId, input: [{ type: 'text', text: turn.input, text_elements: [] }] },
    {
      timeoutMs: limitMs,
      onStarted: (started) => {
        if (turn.interruptAfterMs !== undefined) interrupt = setTimeout(() => void server.client.request(TurnInterrupt, { threadId, turnId: started.id }), turn.interruptAfterMs);
      },
    },
  );
  clearTimeout(interrupt);
  if (outcome._tag === 'StartFailed') {
    return { input: turn.input, turnId: null, status: 'notStarted', expectedStatus, durationMs: 0, agentMessages: [], items: [], error: describeClientError(outcome.error) };
  }
  const items = outcome.items;
  const agentMessages = items.flatMap((item) => (item.type === 'agentMessage' ? [item.text] : []));
  const report = { input: turn.input, turnId: isTurnEnded(outcome) ? outcome.turn.id : outcome.turnId, expectedStatus, durationMs: Math.round(performance.now() - t0), agentMessages, items };
  switch (outcome._tag) {
    case 'TimedOut':
      return { ...report, status: 'timedOut', error: `the turn did not complete within ${limitMs} ms` };
    case 'ClientClosed':
    case 'Aborted':
      return { ...report, status: 'aborted', error: outcome._tag === 'ClientClosed' ? `the app-server connection ended: ${describeClientError(outcome.error)}` : 'the turn was aborted' };
    default:
      return { ...report, status: outcome.turn.status, error: outcome.turn.error };
  }
}

/** Runs a scenario and returns its report; never throws for a failure of the scenario itself. */
export async function runScenario(options: RunScenarioOptions): Promise<ScenarioReport> {
  const { scenario } = options;
  const progress = options.onProgress ?? (() => undefined);
  const state: RunState = {
    started: performance.now(),
    wire: [],
    cards: [],
    events: [],
    consumed: new Set(),
    pluginsReadyMs: new Map(),
  };
  const startedAt = new Date().toISOString();
  const dirs = await makeDirs();
  let model: ScriptedModel | undefined;
  let server: SpawnedAppServer | undefined;
  const turns: TurnReport[] = [];
  let spawnToInitializedMs: number | null = null;
  let threadStartMs: number | null = null;
  let error: string | undefined;
  let userAgent: unknown = null;
  let version: CodexVersionCheck | null = null;
  let effectiveConfig: Readonly<Record<string, unknown>> | null = null;
  let effectiveThreadParams: Readonly<Record<string, unknown>> | null = null;
  try {
    model = await startScriptedModel({ script: scenario.model.script });
    const servers = mcpServers(scenario.plugins ?? [], options.baseDir, dirs.pluginLogs);
    if (E.isLeft(servers)) throw new Error(servers.left);
    const config = harnessCodexConfig({ modelUrl: model.url, ...(scenario.model.slug === undefined ? {} : { modelSlug: scenario.model.slug }), mcpServers: servers.right, ...(scenario.config === undefined ? {} : { overrides: scenario.config }) });
    await writeFile(join(dirs.codexHome, 'config.toml'), stringifyToml(config), { mode: 0o600 });
    effectiveConfig = config;

    progress(`starting codex app-server (CODEX_HOME in ${dirs.root})`);
    const t0 = performance.now();
    const spawned = await spawnAppServer({
      codexHome: dirs.codexHome,
      home: dirs.home,
      cwd: dirs.workspace,
      env: { ...(options.env ?? process.env), ...scenario.env },
      ...(options.codexPath === undefined ? {} : { codexPath: options.codexPath }),
      onMessage: (direction, message) => state.wire.push({ atMs: since(state), direction: direction === 'outgoing' ? 'toAppServer' : 'fromAppServer', message }),
    });
    if (E.isLeft(spawned)) throw new Error(`codex app-server did not start: ${JSON.stringify(spawned.left)}`);
    server = spawned.right;
    spawnToInitializedMs = Math.round(performance.now() - t0);
    userAgent = server.initializeResult.userAgent;
    version = checkCodexVersion(server.initializeResult.userAgent);
    if (version._tag !== 'Supported') progress(`warning: ${describeCodexVersionCheck(version)}`);
    attach(server.client, scenario, state);
    const startup = trackMcpStartup(server.client);

    effectiveThreadParams = harnessThreadParams(dirs.workspace, scenario.thread ?? {});
    const threadParams = ThreadStart.params.decode(effectiveThreadParams);
    if (E.isLeft(threadParams)) throw new Error(`the scenario's thread overrides are not valid thread/start params: ${formatDecodeIssues(describeErrors(threadParams.left, 'thread'))}`);
    const t1 = performance.now();
    const thread = await server.client.request(ThreadStart, threadParams.right);
    if (E.isLeft(thread)) throw new Error(`thread/start failed: ${describeClientError(thread.left)}`);
    threadStartMs = Math.round(performance.now() - t1);

    // Codex may sample the model before a plugin has listed its tools: wait for every plugin first.
    const ready = await startup.whenSettled((scenario.plugins ?? []).map((plugin) => plugin.name), options.pluginStartTimeoutMs ?? DEFAULT_PLUGIN_START_TIMEOUT_MS);
    if (E.isLeft(ready)) throw new Error(describeMcpStartupError(ready.left));

    for (const [i, turn] of scenario.turns.entries()) {
      progress(`turn ${i + 1}: ${turn.input}`);
      const report = await runScenarioTurn(server, thread.right.thread.id, turn, options.turnTimeoutMs ?? DEFAULT_TURN_TIMEOUT_MS);
      turns.push(report);
      progress(`turn ${i + 1} ${report.status} in ${report.durationMs} ms`);
      if (report.status === 'notStarted' || report.status === 'aborted') break;
    }
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  } finally {
    await server?.dispose();
    await model?.close();
  }
  const stderrTail = server?.stderrTail() ?? '';
  const plugins = await readPluginLogs(scenario.plugins ?? [], dirs.pluginLogs);
  const modelRequests = model?.requests ?? [];
  const checkInput = { turns, cards: state.cards, modelRequests, plugins };
  const checks = [...builtInChecks(checkInput), ...expectationChecks(scenario.expect, checkInput)];
  if (!options.keepWorkDir) await rm(dirs.root, { recursive: true, force: true });
  return {
    scenario: scenario.name,
    passed: error === undefined && turns.length === scenario.turns.length && checks.every((check) => check.passed),
    startedAt,
    durationMs: Math.round(performance.now() - state.started),
    codex: { commandLine: server?.commandLine ?? [], codexHome: dirs.codexHome, userAgent, version },
    config: effectiveConfig,
    threadParams: effectiveThreadParams,
    timings: { spawnToInitializedMs, threadStartMs, pluginsReadyMs: Object.fromEntries(state.pluginsReadyMs), turnsMs: turns.map((turn) => turn.durationMs) },
    turns,
    cards: state.cards,
    checks,
    wire: state.wire,
    plugins,
    model: { requests: modelRequests, unusedResponses: model?.remaining ?? 0 },
    events: state.events,
    stderrTail,
    ...(error === undefined ? {} : { error }),
  };
}
