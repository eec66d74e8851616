/**
 * Composing an executor from the libraries, in the order a host's message crosses them: what
 * `apps/desktop-executor` does for `message/send`, cut down to one task, one turn and one card, with no
 * host connection (the host's message and its answer are values here). It runs the real
 * `codex app-server`, the real forms plugin (`@wework/sample-plugins`) and the scripted model
 * (`@wework/scripted-model`), so it needs no OpenAI account; everything it starts is stopped and its
 * temporary directory removed before it exits.
 *
 * Run: `node examples/dist/embedding/compose-executor.js` (after `npx nx build examples`).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { runTurn, trackMcpStartup } from '@wework/app-server-client';
import { spawnAppServer } from '@wework/app-server-client/node';
import { permissionParamsForTask, weworkFeatures, weworkInitializeCapabilities } from '@wework/approval-policy';
import { McpServerElicitationRequest, ModelList, ThreadStart } from '@wework/codex-protocol';
import { checkedResponseForCard, handleCodexElicitationRequest, hostCardKindOf, hostQuestionsOf } from '@wework/elicitation-mapper';
import { decodeHostParams, HostReply, MessageSend } from '@wework/host-protocol';
import { toCodexTurnInput } from '@wework/mention-serializer';
import { checkSendable, loadCatalog } from '@wework/model-catalog';
import { formsPluginCommand } from '@wework/sample-plugins';
import { callTool, respond, say, scriptedModelCodexConfig } from '@wework/scripted-model';
import { startScriptedModel } from '@wework/scripted-model/node';
import { makeThreadLifecycle } from '@wework/thread-lifecycle';

/** The right side, or an error naming the step (an executor answers the host with it instead). */
const orFail = <L, A>(step: string, result: E.Either<L, A>): A => {
  if (E.isLeft(result)) throw new Error(`${step}: ${JSON.stringify(result.left)}`);
  return result.right;
};

// Set-up (the executor's start): a throw-away Codex home whose config.toml names the scripted model as
// the model provider, Wework's features and the forms plugin with its tools approved, so the plugin's
// form is the only card of the turn.
const root = await mkdtemp(join(tmpdir(), 'wework-compose-'));
const codexHome = join(root, 'codex');
const workspace = join(root, 'workspace');
await Promise.all([mkdir(codexHome), mkdir(workspace)]);
const model = await startScriptedModel({ script: [respond(callTool('forms', 'choose_strategy')), respond(say('The safe course it is.'))] });
const forms = formsPluginCommand();
const modelConfig = scriptedModelCodexConfig({ baseUrl: model.url });
const config = { ...modelConfig, features: { ...modelConfig.features, ...weworkFeatures }, mcp_servers: { forms: { command: forms.command, args: [...forms.args], default_tools_approval_mode: 'approve' } } };
await writeFile(join(codexHome, 'config.toml'), stringifyToml(config), { mode: 0o600 });

// 1. @wework/app-server-client: spawns `codex app-server` (initialized with approval-policy's capabilities)
//    and decodes everything it says with @wework/codex-protocol's codecs.
const { client, dispose } = orFail('spawnAppServer', await spawnAppServer({ codexHome, home: root, cwd: workspace, env: { PATH: process.env['PATH'] }, capabilities: weworkInitializeCapabilities() }));
const startup = trackMcpStartup(client);
const lifecycle = makeThreadLifecycle(); // 2. @wework/thread-lifecycle: when the thread is released and resumed
let now = 0; // the executor's clock (ports' systemClock); a counter here

try {
  // 3. @wework/host-protocol: the host's `message/send` params, decoded at the boundary (a bad one is
  //    refused with its path, never its value).
  const fromHost: unknown = { taskId: 'task-1', markdown: "Call the forms plugin's choose_strategy tool, then say which strategy was chosen." };
  const params = orFail('message/send', decodeHostParams(MessageSend, fromHost));
  const task = { taskId: params.taskId, modelSelection: { model: null } }; // the persisted task: no saved model, no permission mode
  console.log(`host: message/send for ${params.taskId}`);

  // 4. @wework/model-catalog: Codex's model/list, and whether the task's saved model can send.
  const catalog = orFail('model/list', await loadCatalog((_cursor, page) => client.request(ModelList, page)));
  const sendable = orFail('the saved model', checkSendable(catalog, task.modelSelection.model));
  console.log(`model-catalog: ${sendable._tag}`);

  // 5. @wework/mention-serializer: the composer's markdown as Codex's turn input (mentions as structured items).
  const turnInput = orFail('the message', toCodexTurnInput(params.markdown));
  console.log(`mention-serializer: ${turnInput.map((item) => item.type).join(', ')}`);

  // 6. @wework/approval-policy: the task's permission mode as thread/start's and turn/start's params
  //    (no mode saved: Full access, with the granular policy that lets plugin forms through).
  const threadPermissions = permissionParamsForTask(task, 'thread/start');
  const turnPermissions = permissionParamsForTask(task, 'turn/start');
  console.log(`approval-policy: ${threadPermissions.mode}`);

  // 7. @wework/elicitation-mapper on the way back: the plugin's form, decoded once by the client, becomes
  //    a card; the card goes to the host as @wework/host-protocol's card (card/show), and the host's answer
  //    is checked against the card and mapped to the plugin's ElicitResult.
  client.onServerRequest(McpServerElicitationRequest, (request) => {
    const decision = handleCodexElicitationRequest(request);
    if (decision._tag === 'Respond') return E.right(decision.response); // declined at once: the form cannot be shown
    const questions = hostQuestionsOf(decision.card);
    console.log(`elicitation-mapper: ${hostCardKindOf(decision.card)} card "${decision.card.message}" [${questions.flatMap((q) => q.options?.map((o) => o.label) ?? []).join(', ')}]`);
    const answerFromHost: unknown = { answers: { [questions[0]?.id ?? '']: { answers: ['Safe'] } } }; // the user picked "Safe"
    const reply = HostReply.decode(answerFromHost);
    if (E.isLeft(reply)) return E.right({ action: 'cancel', content: null, _meta: null });
    const checked = checkedResponseForCard(decision.card, reply.right);
    if (E.isLeft(checked)) return E.right({ action: 'cancel', content: null, _meta: null }); // the executor shows the card again instead
    console.log(`host answered: ${checked.right.action} ${JSON.stringify(checked.right.content)}`);
    return E.right(checked.right);
  });

  // 8. @wework/codex-protocol + @wework/app-server-client: thread/start, the plugin ready, then the turn.
  const threadId = orFail('thread/start', await client.request(ThreadStart, { cwd: workspace, ...threadPermissions.params })).thread.id;
  orFail('the forms plugin', await startup.whenSettled(['forms'], 60_000));
  lifecycle.turnStarted(threadId, (now += 1));
  const outcome = await runTurn(client, { threadId, input: turnInput, model: sendable.model.id, ...turnPermissions.params }, { timeoutMs: 120_000 });
  lifecycle.turnCompleted(threadId, (now += 1));
  if (outcome._tag !== 'Completed') throw new Error(`the turn ended ${outcome._tag}`);
  const said = outcome.items.flatMap((item) => (item.type === 'agentMessage' ? [item.text] : []));
  console.log(`codex: ${said.join(' ')}`);
  console.log(`thread-lifecycle: the subscription is kept; release it ${(lifecycle.nextDeadline() ?? now) - now} ms after the turn unless the task goes on`);
  console.log(`scripted model: ${model.requests.length} requests`);
} finally {
  await dispose(); // the app-server, its plugins and their process tree
  await model.close();
  await rm(root, { recursive: true, force: true });
}
