/**
 * Records golden fixtures: real messages of the pinned `codex app-server`, driven offline with a
 * scripted model (a loopback Responses API) and a small MCP plugin that asks a form.
 *
 * Re-runnable: `node src/main.mjs capture` replaces libs/codex-protocol/test/fixtures/golden/.
 * Everything runs in a fresh temporary directory (CODEX_HOME, HOME, workspace), which is removed
 * afterwards; its path is replaced by `/golden` in the fixtures. No credentials are involved.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { clearTimeout, setTimeout } from 'node:timers';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { libRoot } from '../paths.mjs';
import { startAppServer } from './appServerProcess.mjs';
import { jsonLineClient } from './jsonLineClient.mjs';
import { startScriptedResponses } from './scriptedResponses.mjs';

/** Where the fixtures go, relative to the library root. */
export const goldenDirectory = 'test/fixtures/golden';

const formPluginScript = join(dirname(fileURLToPath(import.meta.url)), 'formPlugin.mjs');
/** The workspace root, replaced by `/repo` in the fixtures so no machine path is recorded. */
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * What the scripted model does for each user prompt.
 * @type {Record<string, import('./scriptedResponses.mjs').ScriptedReply>}
 */
const replies = {
  hello: { kind: 'message', text: 'Hello from the scripted model.' },
  form: { kind: 'functionCall', namespace: 'mcp__golden_forms', name: 'choose_strategy', arguments: {} },
  approve: { kind: 'functionCall', namespace: 'mcp__golden_prompt', name: 'choose_strategy', arguments: {} },
  command: {
    kind: 'functionCall',
    name: 'exec_command',
    arguments: { cmd: 'echo golden', sandbox_permissions: 'require_escalated', justification: 'Print a greeting.' },
  },
};

/**
 * Picks the scripted reply: after a tool result, a closing message; otherwise by the last user
 * prompt's text.
 * @param {any} body a Responses API request body
 * @returns {import('./scriptedResponses.mjs').ScriptedReply}
 */
function scriptFor(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  const last = input.at(-1);
  if (last && typeof last.type === 'string' && last.type.endsWith('_output')) return { kind: 'message', text: 'Done.' };
  const prompt = [...input].reverse().find((item) => item.role === 'user');
  const text = JSON.stringify(prompt?.content ?? '');
  const key = Object.keys(replies).find((k) => text.includes(`golden:${k}`));
  return (key && replies[key]) || { kind: 'message', text: 'Done.' };
}

/**
 * @param {string} baseUrl
 */
function configToml(baseUrl) {
  return `model = "mock-model"
model_provider = "mock"

[model_providers.mock]
name = "Scripted model"
base_url = "${baseUrl}"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
unbounded_connection_retries = false

[features]
plugins = false
tool_call_mcp_elicitation = false

[mcp_servers.golden_forms]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(formPluginScript)}]
default_tools_approval_mode = "approve"

[mcp_servers.golden_prompt]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(formPluginScript)}]
default_tools_approval_mode = "prompt"
`;
}

const formsPolicy = {
  granular: { sandbox_approval: false, rules: false, skill_approval: false, request_permissions: false, mcp_elicitations: true },
};

/**
 * Runs the session and writes the fixtures.
 * @returns {Promise<string[]>} the fixture paths written, relative to the library root
 */
export async function captureGoldenFixtures() {
  const root = await mkdtemp(join(tmpdir(), 'codex-golden-'));
  const codexHome = join(root, 'codex-home');
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  for (const dir of [codexHome, home, workspace]) await mkdir(dir, { recursive: true });
  const model = await startScriptedResponses(scriptFor);
  await writeFile(join(codexHome, 'config.toml'), configToml(model.baseUrl));
  const server = await startAppServer({ codexHome, home, cwd: workspace });
  /** @type {Map<string, unknown>} */
  const fixtures = new Map();
  try {
    const client = jsonLineClient(server.child);
    /** @param {string} method @param {unknown} [params] */
    const call = async (method, params) => {
      const response = await withTimeout(client.request(method, params), method);
      if (response.error) throw new Error(`${method} failed: ${response.error.message}`);
      fixtures.set(`client-request-results/${fileName(method)}`, { method, result: response.result });
      return /** @type {any} */ (response.result);
    };
    await call('initialize', { clientInfo: { name: 'golden', title: 'Golden capture', version: '1.0.0' }, capabilities: { experimentalApi: true } });
    client.notify('initialized');
    await call('model/list', { includeHidden: false });
    await call('config/read', {});
    await call('permissionProfile/list', {});
    await call('account/read', {});
    await call('skills/list', { cwds: [workspace] });

    const { thread } = await call('thread/start', { cwd: workspace, approvalPolicy: formsPolicy });
    /** @param {string} threadId @param {string} prompt */
    const turn = async (threadId, prompt) => {
      const { turn: started } = await call('turn/start', { threadId, input: [{ type: 'text', text: prompt, text_elements: [] }] });
      return started.id;
    };
    /** @param {string} turnId */
    const turnCompleted = (turnId) =>
      withTimeout(client.next('turn/completed', (m) => /** @type {any} */ (m.params).turn.id === turnId), 'turn/completed');

    // A plain turn: turn, item and message notifications.
    await turnCompleted(await turn(thread.id, 'golden:hello'));

    // A plugin form, forwarded as mcpServer/elicitation/request.
    const formTurn = await turn(thread.id, 'golden:form');
    const elicitation = await withTimeout(client.next('mcpServer/elicitation/request'), 'elicitation');
    client.respond(/** @type {number} */ (elicitation.id), { action: 'accept', content: { strategy: 'safe', retries: 2, notify: true }, _meta: null });
    await turnCompleted(formTurn);

    // A tool approval in prompt mode, which arrives as item/tool/requestUserInput.
    const approveTurn = await turn(thread.id, 'golden:approve');
    const userInput = await withTimeout(client.next('item/tool/requestUserInput'), 'requestUserInput');
    const question = /** @type {any} */ (userInput.params).questions[0];
    client.respond(/** @type {number} */ (userInput.id), { answers: { [question.id]: { answers: [question.options?.[0]?.label ?? 'Allow'] } } });
    const secondForm = await withTimeout(client.next('mcpServer/elicitation/request'), 'elicitation');
    client.respond(/** @type {number} */ (secondForm.id), { action: 'decline', content: null, _meta: null });
    await turnCompleted(approveTurn);

    // A command that needs escalation, on a read-only thread that asks on request.
    const { thread: readOnly } = await call('thread/start', { cwd: workspace, permissions: ':read-only', approvalPolicy: 'on-request' });
    const commandTurn = await turn(readOnly.id, 'golden:command');
    const approval = await withTimeout(client.next('item/commandExecution/requestApproval'), 'command approval');
    client.respond(/** @type {number} */ (approval.id), { decision: 'decline' });
    await turnCompleted(commandTurn);

    await call('thread/unsubscribe', { threadId: readOnly.id });

    for (const message of client.received) {
      if (message.method === undefined) continue;
      const category = message.id === undefined ? 'server-notifications' : 'server-requests';
      const itemType = /** @type {any} */ (message.params)?.item?.type;
      const variant = message.method.startsWith('item/') && typeof itemType === 'string' ? `.${itemType}` : '';
      const key = `${category}/${fileName(message.method)}${variant}`;
      if (!fixtures.has(key)) fixtures.set(key, { method: message.method, params: message.params });
    }
  } finally {
    await server.stop();
    await model.close();
  }
  const target = join(libRoot, goldenDirectory);
  await rm(target, { recursive: true, force: true });
  const written = [];
  for (const [name, message] of [...fixtures].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = join(target, `${name}.json`);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${JSON.stringify(message, null, 2).replaceAll(root, '/golden').replaceAll(repoRoot, '/repo')}\n`);
    written.push(`${goldenDirectory}/${name}.json`);
  }
  await rm(root, { recursive: true, force: true });
  return written;
}

/** @param {string} method */
function fileName(method) {
  return method.replaceAll('/', '.');
}

/**
 * @template T
 * @param {Promise<T>} promise
 * @param {string} what
 * @returns {Promise<T>}
 */
function withTimeout(promise, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 30_000);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, timeout]).finally(() => clearTimeout(timer)));
}
