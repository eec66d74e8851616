/**
 * The forms diagnosis on real runs: each `scenarios/diagnose-*.json` runs against the real
 * `codex app-server` (scripted model, real forms plugin), and the diagnosis of its report must name
 * the cause. Also, the approval configuration of `@wework/approval-policy` against the real app-server:
 * the built-in server refresh through `config/batchWrite`, and the permission modes' params on
 * thread/start, turn/start, thread/fork and thread/resume.
 */
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigBatchWrite, ConfigRead, ThreadFork, ThreadResume, ThreadStart } from '@wework/codex-protocol';
import {
  PERMISSION_MODES,
  WEGENT_APPS_SERVER,
  WEWORK_BROWSER_SERVER,
  applyPermissionMode,
  permissionModeOf,
  permissionParams,
  refreshBuiltInServers,
} from '@wework/approval-policy';
import { diagnoseForms, weworkGranularApprovalPolicy, type FormsFinding } from '@wework/elicitation-mapper';
import { isTurnEnded, runTurn } from '@wework/app-server-client';
import { spawnAppServer, type SpawnedAppServer } from '@wework/app-server-client/node';
import { respond, say } from '@wework/scripted-model';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';
import { formatSummary, parseScenario, runScenario, type ScenarioReport } from '../src/index.js';
import { decodeReportInput, evidenceFromReport, runDiagnoseCommand, type DiagnoseIo } from '../src/diagnose/index.js';

const scenariosDir = join(dirname(fileURLToPath(import.meta.url)), '../scenarios');

async function run(file: string): Promise<ScenarioReport> {
  const scenario = parseScenario(await readFile(join(scenariosDir, file), 'utf8'));
  if (E.isLeft(scenario)) throw new Error(`${file}: ${JSON.stringify(scenario.left)}`);
  const report = await runScenario({ scenario: scenario.right, baseDir: scenariosDir });
  expect(report.checks.filter((check) => !check.passed), formatSummary(report)).toEqual([]);
  expect(report.passed, report.error).toBe(true);
  return report;
}

function diagnose(report: ScenarioReport): ReadonlyArray<FormsFinding> {
  const input = decodeReportInput(JSON.parse(JSON.stringify(report)));
  if (E.isLeft(input)) throw new Error(input.left.issues.join('\n'));
  return diagnoseForms(evidenceFromReport(input.right).evidence);
}

describe('wework-harness diagnose on real runs', () => {
  it('approvalPolicy "never": the plugin got decline, no card reached the client, and the diagnosis names the policy', async () => {
    const report = await run('diagnose-policy-never.json');
    expect(report.cards).toEqual([]);
    const findings = diagnose(report);
    expect(findings.map((f) => f._tag)).toEqual(['PolicyNeverAutoDeclined']);
    const [finding] = findings;
    expect(finding?._tag === 'PolicyNeverAutoDeclined' && finding.approvalPolicy).toBe('never');
    expect(finding?.meaning).toContain('approvalPolicy "never"');
    expect(finding?.where).toEqual(['forms.deploy']);
  });

  it('granular with mcp_elicitations false: the same symptom, and the diagnosis names that policy', async () => {
    const report = await run('diagnose-granular-elicitations-off.json');
    expect(report.cards).toEqual([]);
    const findings = diagnose(report);
    expect(findings.map((f) => f._tag)).toEqual(['GranularElicitationsOff']);
    const [finding] = findings;
    expect(finding?._tag === 'GranularElicitationsOff' && finding.approvalPolicy).toEqual({ granular: { ...weworkGranularApprovalPolicy.granular, mcp_elicitations: false } });
    expect(finding?.action).toContain('mcp_elicitations to true');
  });

  it('a server in prompt mode: an Allow card per tool call, with the key that controls it', async () => {
    const findings = diagnose(await run('diagnose-tool-approval-prompt.json'));
    expect(findings.map((f) => f._tag)).toEqual(['ToolApprovalStillPrompt']);
    const [finding] = findings;
    expect(finding?._tag === 'ToolApprovalStillPrompt' && finding.settings).toEqual([
      { server: 'forms', tool: 'echo', mode: 'prompt', explicit: true, keyPath: 'mcp_servers.forms.default_tools_approval_mode' },
    ]);
  });

  it('a per-tool prompt: only that tool asks, and the key named is the per-tool one', async () => {
    const report = await run('diagnose-tool-approval-per-tool.json');
    expect(report.cards.map((card) => card.method)).toEqual(['item/tool/requestUserInput']);
    const findings = diagnose(report);
    expect(findings.map((f) => f._tag)).toEqual(['ToolApprovalStillPrompt']);
    const [finding] = findings;
    expect(finding?._tag === 'ToolApprovalStillPrompt' && finding.settings).toEqual([
      { server: 'forms', tool: 'echo', mode: 'prompt', explicit: true, keyPath: 'mcp_servers.forms.tools.echo.approval_mode' },
    ]);
  });

  it('a schema without properties: Codex answers the plugin itself', async () => {
    expect(diagnose(await run('diagnose-schema-without-properties.json')).map((f) => f._tag)).toEqual(['SchemaRejectedByCodex']);
  });

  it('a working multi-question form: no finding', async () => {
    const report = await run('diagnose-forms-work.json');
    expect(report.cards[0]?.params).toMatchObject({ requestedSchema: { properties: { channel: { type: 'string' }, notify: { type: 'boolean' }, replicas: { type: 'integer', minimum: 1, maximum: 9 }, note: { type: 'string' } } } });
    expect(diagnose(report)).toEqual([]);
  });
});

describe('the diagnose command on a real report', () => {
  let scratch: string | undefined;
  afterEach(async () => {
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it('rebuilds config and thread params from the scenario file next to a report that lacks them', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'harness-diagnose-'));
    const scenarioText = await readFile(join(scenariosDir, 'diagnose-policy-never.json'), 'utf8');
    const report = await run('diagnose-policy-never.json');
    // An older report: no config/threadParams, and no thread/start answer on the wire either.
    const { config: _config, threadParams: _threadParams, ...older } = report;
    const threadStartId = older.wire.map((entry) => entry.message as { method?: unknown; id?: unknown }).find((message) => message.method === 'thread/start')?.id;
    const wire = older.wire.filter((entry) => !(entry.direction === 'fromAppServer' && (entry.message as { id?: unknown; method?: unknown }).id === threadStartId && (entry.message as { method?: unknown }).method === undefined));
    await writeFile(join(scratch, 'never.json'), scenarioText);
    await writeFile(join(scratch, 'never.report.json'), JSON.stringify({ ...older, wire }));
    const out: string[] = [];
    const io: DiagnoseIo = {
      readText: (path) => readFile(path, 'utf8').then((text) => E.right(text), (error: NodeJS.ErrnoException) => E.left(error.code ?? 'error')),
      out: (line) => out.push(line),
      err: (line) => out.push(`stderr: ${line}`),
    };
    expect(await runDiagnoseCommand([join(scratch, 'never.report.json')], io)).toBe(1);
    expect(out).toContain('approval policy: "never" (from the scenario file)');
    expect(out).toContain('features.tool_call_mcp_elicitation: false (from the scenario file)');
    expect(out).toContain('✗ PolicyNeverAutoDeclined (forms.deploy)');
    expect(out.at(-1)).toBe('1 finding: PolicyNeverAutoDeclined');
  });
});

describe('the built-in server refresh against the real app-server', () => {
  let server: SpawnedAppServer | undefined;
  let root: string | undefined;
  afterEach(async () => {
    await server?.dispose();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
    server = undefined;
    root = undefined;
  });

  it('config/batchWrite applies the refresh edits exactly as predicted, and a second refresh has none', async () => {
    root = await mkdtemp(join(tmpdir(), 'harness-refresh-'));
    const [codexHome, home, cwd] = [join(root, 'codex-home'), join(root, 'home'), join(root, 'workspace')];
    await Promise.all([codexHome, home, cwd].map((dir) => mkdir(dir)));
    const file = join(codexHome, 'config.toml');
    await writeFile(
      file,
      [
        '# the user\'s config',
        '[features]',
        'plugins = false',
        '',
        '[mcp_servers.wegent_apps]',
        '# kept',
        'command = "old-wegent"',
        'startup_timeout_sec = 20',
        'default_tools_approval_mode = "prompt"',
        '',
        '[mcp_servers.wegent_apps.tools.search]',
        'approval_mode = "approve"',
        '',
        '[mcp_servers.wework_browser]',
        'command = "old-browser"',
        'default_tools_approval_mode = "auto"',
        '',
        '[mcp_servers.mine]',
        'command = "mine"',
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    const spawned = await spawnAppServer({ codexHome, home, cwd, env: { PATH: process.env['PATH'] } });
    if (E.isLeft(spawned)) throw new Error(JSON.stringify(spawned.left));
    server = spawned.right;
    const builtIns = [
      { name: WEGENT_APPS_SERVER, entry: { command: 'wegent-apps-mcp', args: ['--stdio'] } },
      { name: WEWORK_BROWSER_SERVER, entry: { command: 'wework-browser-mcp' } },
    ];
    const before = await server.client.request(ConfigRead, {});
    if (E.isLeft(before)) throw new Error(JSON.stringify(before.left));
    const refresh = refreshBuiltInServers(before.right.config, builtIns);
    if (E.isLeft(refresh)) throw new Error(refresh.left.message);
    expect(refresh.right.edits.map((edit) => edit.keyPath).sort()).toEqual([
      'features.tool_call_mcp_elicitation',
      'mcp_servers.wegent_apps.args',
      'mcp_servers.wegent_apps.command',
      'mcp_servers.wework_browser.command',
      'mcp_servers.wework_browser.default_tools_approval_mode',
    ]);
    const written = await server.client.request(ConfigBatchWrite, { edits: [...refresh.right.edits], reloadUserConfig: true });
    expect(E.isRight(written), JSON.stringify(written)).toBe(true);
    const after = await server.client.request(ConfigRead, {});
    if (E.isLeft(after)) throw new Error(JSON.stringify(after.left));
    const part = (config: Readonly<Record<string, unknown>>) => ({ features: config['features'], mcp_servers: config['mcp_servers'] });
    expect(part(after.right.config)).toEqual(part(refresh.right.config));
    expect(part(after.right.config)).toMatchObject({ mcp_servers: { wegent_apps: { default_tools_approval_mode: 'prompt', startup_timeout_sec: 20 }, wework_browser: { default_tools_approval_mode: 'approve' } } });
    const again = refreshBuiltInServers(after.right.config, builtIns);
    expect(E.isRight(again) && again.right.edits).toEqual([]);
    const text = await readFile(file, 'utf8');
    expect(text).toContain('# kept');
    expect(text).toContain('[mcp_servers.mine]');
  });
});

describe('permission modes against the real app-server', () => {
  let model: ScriptedModel | undefined;
  let server: SpawnedAppServer | undefined;
  let root: string | undefined;
  afterEach(async () => {
    await server?.dispose();
    await model?.close();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
    server = undefined;
    model = undefined;
    root = undefined;
  });

  it('thread/start, turn/start, thread/fork and thread/resume accept each mode and run with its profile and policy', async () => {
    model = await startScriptedModel({ script: PERMISSION_MODES.map((mode) => respond(say(`ran in ${mode}`))) });
    root = await mkdtemp(join(tmpdir(), 'harness-permissions-'));
    const [codexHome, home, cwd] = [join(root, 'codex-home'), join(root, 'home'), join(root, 'workspace')];
    await Promise.all([codexHome, home, cwd].map((dir) => mkdir(dir)));
    const written = await writeScriptedModelConfig(codexHome, { baseUrl: model.url });
    if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
    const spawned = await spawnAppServer({ codexHome, home, cwd, env: { PATH: process.env['PATH'] } });
    if (E.isLeft(spawned)) throw new Error(JSON.stringify(spawned.left));
    server = spawned.right;
    const { client } = server;

    for (const mode of PERMISSION_MODES) {
      const expected = permissionParams(mode);
      const started = await client.request(ThreadStart, applyPermissionMode({ cwd }, mode));
      if (E.isLeft(started)) throw new Error(`${mode}: thread/start ${JSON.stringify(started.left)}`);
      expect(started.right.approvalPolicy, mode).toEqual(expected.approvalPolicy);
      expect(started.right.activePermissionProfile?.id, mode).toBe(expected.permissions);
      expect(permissionModeOf({ permissions: started.right.activePermissionProfile?.id ?? '', approvalPolicy: started.right.approvalPolicy })).toBe(mode);
      const threadId = started.right.thread.id;

      const turn = await runTurn(client, applyPermissionMode({ threadId, input: [{ type: 'text', text: 'hello', text_elements: [] }] }, mode), { timeoutMs: 20_000 });
      if (turn._tag === 'StartFailed') throw new Error(`${mode}: turn/start ${JSON.stringify(turn.error)}`);
      expect(isTurnEnded(turn) ? turn.turn.status : turn._tag).toBe('completed');

      const forked = await client.request(ThreadFork, applyPermissionMode({ threadId }, mode));
      if (E.isLeft(forked)) throw new Error(`${mode}: thread/fork ${JSON.stringify(forked.left)}`);
      expect(forked.right.approvalPolicy, mode).toEqual(expected.approvalPolicy);
      expect(forked.right.activePermissionProfile?.id, mode).toBe(expected.permissions);

      const resumed = await client.request(ThreadResume, applyPermissionMode({ threadId }, mode));
      if (E.isLeft(resumed)) throw new Error(`${mode}: thread/resume ${JSON.stringify(resumed.left)}`);
      expect(resumed.right.approvalPolicy, mode).toEqual(expected.approvalPolicy);
      expect(resumed.right.activePermissionProfile?.id, mode).toBe(expected.permissions);
    }
    expect(model.remaining).toBe(0);
  });
});
