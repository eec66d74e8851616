/**
 * The web host's entry: reads the launch token from the URL fragment (keeping it for this tab's
 * reloads in `sessionStorage` and removing it from the address bar), connects to the executor on the
 * page's own origin, and renders the chat.
 */
import * as E from 'fp-ts/lib/Either.js';
import { render } from 'preact';
import { readWebHostLaunch, webHostFragment, type HostReply, type PermissionMode, type TaskRecord } from '@wework/host-protocol';
import { App, type ChatActions, type ComposerInsert, type Page, type PagesProps } from './App.js';
import { pluginActions } from './pluginActions.js';
import { initialPlugins, reducePlugins, type PluginsAction, type PluginsState } from './PluginsState.js';
import { readCard, type CardModel } from './CardForm.js';
import { initialChat, reduceChat, type ChatAction, type ChatState } from './ChatState.js';
import { HostClient } from './HostClient.js';


const STORAGE_KEY = 'wework-web-host-launch';
const root = document.getElementById('app');
const launch = readWebHostLaunch(location.hash) ?? readWebHostLaunch(sessionStorage.getItem(STORAGE_KEY) ?? '');

if (root === null) throw new Error('the page has no #app element');
if (launch === null) {
  root.textContent = 'Open the address the executor printed at launch (it carries the launch token).';
} else {
  sessionStorage.setItem(STORAGE_KEY, webHostFragment(launch));
  // Read before the address bar loses its fragment: a reload of `#plugins` stays on the Plugins page.
  let page: Page = location.hash === '#plugins' ? 'plugins' : 'chat';
  history.replaceState(null, '', page === 'plugins' ? '#plugins' : location.pathname);

  let state: ChatState = initialChat;
  let plugins: PluginsState = initialPlugins;
  let insert: ComposerInsert | null = null;
  let painting = false;
  const paint = (): void => {
    if (!painting) return;
    const pages: PagesProps = { page, navigate, plugins, pluginActions: pagesActions, insert };
    render(<App state={state} actions={actions} pages={pages} />, root);
  };
  const dispatchPlugins = (action: PluginsAction): void => {
    plugins = reducePlugins(plugins, action);
    paint();
  };
  // Rendered at once: controlled inputs never show a value the state does not hold.
  const dispatch = (action: ChatAction): void => {
    state = reduceChat(state, action);
    paint();
  };
  /** The one-shot responders of the cards on screen, by card id (a dropped connection's responders do nothing). */
  const responders = new Map<string, (reply: HostReply) => void>();

  const client = new HostClient(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/`, launch.token, {
    onState: (connection) => dispatch({ _tag: 'Connection', state: connection }),
    onEvent: (event) => {
      switch (event.method) {
        case 'transcript/turnStarted':
          return dispatch({ _tag: 'TurnStarted', params: event.params });
        case 'transcript/item':
          return dispatch({ _tag: 'Item', params: event.params });
        case 'transcript/agentMessageDelta':
          return dispatch({ _tag: 'Delta', params: event.params });
        case 'transcript/turnCompleted':
          return dispatch({ _tag: 'TurnCompleted', params: event.params });
        case 'auth/session':
          return dispatchPlugins({ _tag: 'Login', session: event.params });
        case 'inventory/changed':
          void loadInventory();
          // The Plugins page reads everything again, the remote Apps / Connectors switch included.
          if (page === 'plugins') return pagesActions.reload();
          return event.params.change === 'remoteApps' ? pagesActions.readRemoteApps() : undefined;
        case 'runtime/status':
          // Codex is back after a restart (a plugin switch, an account switch): what it refused meanwhile is read again.
          if (event.params.state !== 'ready') return undefined;
          void loadInventory();
          return page === 'plugins' ? pagesActions.reload() : undefined;
        case 'card/dismissed':
          responders.delete(event.params.cardId);
          return dispatch({ _tag: 'CardSettled', cardId: event.params.cardId });
        default:
          return undefined;
      }
    },
    onCard: (raw, respond) => {
      const card = readCard(raw);
      if (E.isLeft(card)) {
        // A card this page cannot show is cancelled, never answered for the user.
        respond({ action: 'cancel' });
        dispatch({ _tag: 'Notice', message: `A card could not be shown (${card.left.message}); it was cancelled.` });
        return;
      }
      responders.set(card.right.cardId, respond);
      dispatch({ _tag: 'CardShown', model: card.right });
    },
    onResumed: () => {
      void Promise.all([loadTasks(), loadModels(), loadInventory()]);
      if (page === 'plugins') pagesActions.reload();
    },
    onPending: (cardIds) => dispatch({ _tag: 'CardsPending', cardIds }),
  });

  const loadTasks = async (): Promise<void> => {
    const listed = await client.request('task/list', {});
    if (E.isRight(listed)) {
      for (const task of listed.right.tasks as ReadonlyArray<TaskRecord>) records.set(task.taskId, task);
      dispatch({ _tag: 'TasksLoaded', tasks: listed.right.tasks as ReadonlyArray<TaskRecord> });
    }
  };

  const loadModels = async (): Promise<void> => {
    const listed = await client.request('models/list', {});
    if (E.isRight(listed)) dispatch({ _tag: 'Models', models: listed.right.models.filter((m) => !m.hidden).map((m) => ({ model: m.model, displayName: m.displayName, isDefault: m.isDefault })) });
  };
  const loadInventory = async (): Promise<void> => {
    const [listed, skills] = await Promise.all([client.request('plugins/installed', {}), client.request('skills/list', { cwd: launch.workspace })]);
    if (E.isRight(listed)) dispatch({ _tag: 'Inventory', plugins: listed.right.plugins });
    if (E.isRight(skills)) dispatch({ _tag: 'Skills', skills: skills.right.skills });
  };
  const taskRecord = (taskId: string): TaskRecord | undefined => records.get(taskId);
  /** The task records as the executor last gave them (the model selection is sent back with a changed model). */
  const records = new Map<string, TaskRecord>();

  const createTask = async (mode: PermissionMode): Promise<string | null> => {
    const taskId = `task-${crypto.randomUUID()}`;
    const created = await client.request('task/create', { taskId, modelSelection: { model: null, options: { permissionMode: mode } }, executionRequest: { workspace: launch.workspace } });
    if (E.isRight(created)) {
      records.set(created.right.task.taskId, created.right.task);
      dispatch({ _tag: 'TaskCreated', task: created.right.task });
      return created.right.task.taskId;
    }
    dispatch({ _tag: 'Notice', message: `The task was not created: ${created.left.message}` });
    return null;
  };
  const navigate = (next: Page): void => {
    page = next;
    history.replaceState(null, '', next === 'plugins' ? '#plugins' : location.pathname);
    if (next === 'plugins') pagesActions.reload();
    paint();
  };
  let nonce = 0;
  /** "Try in chat": the draft goes into the selected task's composer, or a new task's when none is selected or it is busy. */
  const tryInChat = async (markdown: string): Promise<void> => {
    const selected = state.tasks.find((t) => t.taskId === state.selected);
    const taskId = selected !== undefined && selected.entries.length === 0 ? selected.taskId : await createTask('full-access');
    if (taskId === null) return;
    dispatch({ _tag: 'Select', taskId });
    nonce += 1;
    insert = { nonce, taskId, markdown };
    navigate('chat');
  };
  const pagesActions = pluginActions(client, dispatchPlugins, () => plugins, (markdown) => void tryInChat(markdown));

  const actions: ChatActions = {
    createTask: (mode: PermissionMode) => void createTask(mode),
    select: (taskId) => dispatch({ _tag: 'Select', taskId }),
    send: (taskId, markdown, settings) => {
      dispatch({ _tag: 'Sending', taskId });
      const saved = taskRecord(taskId)?.modelSelection ?? { model: null };
      const modelSelection = saved.model === settings.model ? undefined : { ...saved, model: settings.model };
      void client.request('message/send', { taskId, markdown, permissionMode: settings.permissionMode, ...(modelSelection === undefined ? {} : { modelSelection }) }).then((sent) => {
        if (E.isRight(sent)) void loadTasks();
        // A dropped connection does not end the turn: it goes on in the executor and its end arrives in the stream.
        if (E.isLeft(sent) && sent.left._tag !== 'Disconnected') dispatch({ _tag: 'SendFailed', taskId, message: sent.left.message });
      });
    },
    stop: (taskId) => {
      void client.request('task/stop', { taskId }).then((stopped) => {
        if (E.isLeft(stopped)) dispatch({ _tag: 'Notice', message: `The task did not stop: ${stopped.left.message}` });
      });
    },
    readSkill: async (path) => {
      const read = await client.request('skills/read', { path, cwd: launch.workspace });
      return E.isRight(read)
        ? { _tag: 'Loaded', name: read.right.name, markdown: read.right.markdown, truncated: read.right.truncated }
        : { _tag: 'Failed', name: path.split(/[\\/]/).slice(-2, -1)[0] ?? 'skill', message: `The skill could not be shown: ${read.left.message}` };
    },
    chooseModel: (taskId, model) => dispatch({ _tag: 'TaskSettings', taskId, model }),
    chooseMode: (taskId, mode) => dispatch({ _tag: 'TaskSettings', taskId, permissionMode: mode }),
    changeCard: (model: CardModel) => dispatch({ _tag: 'CardChanged', model }),
    answerCard: (cardId, reply) => {
      const respond = responders.get(cardId);
      if (respond === undefined) return;
      responders.delete(cardId);
      respond(reply);
      dispatch({ _tag: 'CardSettled', cardId });
    },
  };

  root.textContent = '';
  painting = true;
  paint();
  client.start();
  // For the browser tests and a curious user: the connection can be dropped on purpose to see the reconnect.
  (window as unknown as { weworkHost?: unknown }).weworkHost = { drop: () => client.drop(), lastSeq: () => client.lastSeq() };
}
