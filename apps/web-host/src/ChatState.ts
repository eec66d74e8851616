/**
 * The chat's state and the one reducer that moves it: the tasks, each task's transcript (items as
 * compact entries, agent messages growing with their deltas), each task's turn status, the cards
 * waiting for the user, and the connection. Notifications arrive decoded (by `HostClient`); the
 * reducer only folds them in.
 *
 * Every function here is pure: a state and an action in, the next state out; nothing throws.
 */
import type { HostNotificationParamsOf, InstalledPlugin, TaskRecord, WorkspaceSkill } from '@wework/host-protocol';
import type { CardModel } from './CardForm.js';

/** One line of a transcript: a message, or a tool call or command shown compactly. */
export interface Entry {
  readonly itemId: string;
  readonly kind: 'user' | 'agent' | 'command' | 'tool' | 'fileChange' | 'reasoning' | 'other';
  /** The message text, the command line, `server.tool`, the changed paths. */
  readonly text: string;
  /** `inProgress`, `completed`, `failed`, ... for commands and tool calls; `null` for messages. */
  readonly status: string | null;
  /** A short result: the exit code and output of a command, the text a tool returned. */
  readonly detail: string | null;
}

/** Where a task's turn is. */
export type TurnStatus =
  | { readonly _tag: 'Idle' }
  | { readonly _tag: 'Sending' }
  | { readonly _tag: 'Running'; readonly turnId: string }
  | { readonly _tag: 'Ended'; readonly status: string; readonly error: string | null };

/** A task and its transcript. */
export interface TaskView {
  readonly taskId: string;
  readonly threadId: string;
  readonly permissionMode: string | null;
  /** The saved model (`null`: Codex's default). */
  readonly model: string | null;
  readonly turn: TurnStatus;
  readonly entries: ReadonlyArray<Entry>;
}

/** A card waiting for the user; `stale` once its connection dropped (it is shown again after the reconnect). */
export interface CardEntry {
  readonly model: CardModel;
  readonly stale: boolean;
}

/** The connection to the executor. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The whole chat. */
export interface ChatState {
  readonly connection: ConnectionState;
  readonly tasks: ReadonlyArray<TaskView>;
  readonly selected: string | null;
  readonly cards: ReadonlyArray<CardEntry>;
  /** The last problem to tell the user (a failed request), or `null`. */
  readonly notice: string | null;
  /** The installed plugins (`plugins/installed`): the composer picker's skills, apps and plugins. */
  readonly inventory: ReadonlyArray<InstalledPlugin>;
  /** The skills Codex sees for the workspace (`skills/list`): the picker's user and workspace skills. */
  readonly skills: ReadonlyArray<WorkspaceSkill>;
  /** The models offered (`models/list`, Codex's order), `null` until read. */
  readonly models: ReadonlyArray<{ readonly model: string; readonly displayName: string; readonly isDefault: boolean }> | null;
}

/** The state before anything happened. */
export const initialChat: ChatState = { connection: 'connecting', tasks: [], selected: null, cards: [], notice: null, inventory: [], skills: [], models: null };

/** What can happen to the chat. */
export type ChatAction =
  | { readonly _tag: 'Connection'; readonly state: ConnectionState }
  | { readonly _tag: 'TasksLoaded'; readonly tasks: ReadonlyArray<TaskRecord> }
  | { readonly _tag: 'TaskCreated'; readonly task: TaskRecord }
  | { readonly _tag: 'Select'; readonly taskId: string }
  | { readonly _tag: 'Sending'; readonly taskId: string }
  | { readonly _tag: 'SendFailed'; readonly taskId: string; readonly message: string }
  | { readonly _tag: 'Notice'; readonly message: string | null }
  | { readonly _tag: 'Inventory'; readonly plugins: ReadonlyArray<InstalledPlugin> }
  | { readonly _tag: 'Skills'; readonly skills: ReadonlyArray<WorkspaceSkill> }
  | { readonly _tag: 'Models'; readonly models: NonNullable<ChatState['models']> }
  /** The model or permission mode chosen for a task (saved by the executor with its next message). */
  | { readonly _tag: 'TaskSettings'; readonly taskId: string; readonly model?: string | null; readonly permissionMode?: string }
  | { readonly _tag: 'TurnStarted'; readonly params: HostNotificationParamsOf<'transcript/turnStarted'> }
  | { readonly _tag: 'Item'; readonly params: HostNotificationParamsOf<'transcript/item'> }
  | { readonly _tag: 'Delta'; readonly params: HostNotificationParamsOf<'transcript/agentMessageDelta'> }
  | { readonly _tag: 'TurnCompleted'; readonly params: HostNotificationParamsOf<'transcript/turnCompleted'> }
  | { readonly _tag: 'CardShown'; readonly model: CardModel }
  | { readonly _tag: 'CardChanged'; readonly model: CardModel }
  | { readonly _tag: 'CardSettled'; readonly cardId: string }
  /** The cards the executor still waits for after a reconnect: a stale card not among them was settled meanwhile. */
  | { readonly _tag: 'CardsPending'; readonly cardIds: ReadonlyArray<string> };

/** How much of a command's output or a tool's result an entry keeps. */
export const DETAIL_MAX_CHARS = 2000;

const clip = (text: string): string => (text.length <= DETAIL_MAX_CHARS ? text : `${text.slice(0, DETAIL_MAX_CHARS)}…`);

type ThreadItem = HostNotificationParamsOf<'transcript/item'>['item'];

/** The entry of a transcript item. */
export function entryOf(item: ThreadItem): Entry {
  if ('_unknown' in item) {
    // An item kind of a newer Codex: shown by its kind, never its content.
    const id = item.raw['id'];
    return { itemId: typeof id === 'string' ? id : `unknown-${item.literal}`, kind: 'other', text: item.literal, status: null, detail: null };
  }
  const base = { itemId: item.id, status: null, detail: null };
  switch (item.type) {
    case 'userMessage':
      return { ...base, kind: 'user', text: item.content.map((part) => (part.type === 'text' ? part.text : '')).join('') };
    case 'agentMessage':
      return { ...base, kind: 'agent', text: item.text };
    case 'commandExecution': {
      const output = item.aggregatedOutput ?? '';
      const exit = item.exitCode === null ? null : `exit ${item.exitCode}`;
      const detail = [exit, output === '' ? null : clip(output)].filter((p): p is string => p !== null).join('\n');
      return { ...base, kind: 'command', text: item.command, status: item.status, detail: detail === '' ? null : detail };
    }
    case 'mcpToolCall': {
      const texts = (item.result?.content ?? []).flatMap((c) => (typeof c === 'object' && c !== null && 'text' in c && typeof c.text === 'string' ? [c.text] : []));
      const detail = item.error !== null ? item.error.message : texts.length > 0 ? clip(texts.join('\n')) : null;
      return { ...base, kind: 'tool', text: `${item.server}.${item.tool}`, status: item.status, detail };
    }
    case 'fileChange':
      return { ...base, kind: 'fileChange', text: item.changes.map((c) => c.path).join(', '), status: item.status };
    case 'reasoning':
      return { ...base, kind: 'reasoning', text: item.summary.join('\n') };
    default:
      return { ...base, kind: 'other', text: item.type };
  }
}

const taskOfRecord = (task: TaskRecord, existing?: TaskView): TaskView => ({
  taskId: task.taskId,
  threadId: task.threadId,
  permissionMode: typeof task.modelSelection.options?.['permissionMode'] === 'string' ? task.modelSelection.options['permissionMode'] : null,
  model: task.modelSelection.model,
  turn: existing?.turn ?? { _tag: 'Idle' },
  entries: existing?.entries ?? [],
});

const updateTask = (state: ChatState, taskId: string, update: (task: TaskView) => TaskView): ChatState => ({
  ...state,
  tasks: state.tasks.map((task) => (task.taskId === taskId ? update(task) : task)),
});

const upsertEntry = (entries: ReadonlyArray<Entry>, entry: Entry): ReadonlyArray<Entry> => {
  const at = entries.findIndex((e) => e.itemId === entry.itemId);
  return at < 0 ? [...entries, entry] : entries.map((e, i) => (i === at ? entry : e));
};

/** The chat after `action`. */
export function reduceChat(state: ChatState, action: ChatAction): ChatState {
  switch (action._tag) {
    case 'Connection':
      // A dropped connection takes its card requests with it: the cards stay in view, marked stale, until shown again.
      return { ...state, connection: action.state, cards: action.state === 'open' ? state.cards : state.cards.map((c) => ({ ...c, stale: true })) };
    case 'TasksLoaded': {
      const byId = new Map(state.tasks.map((task) => [task.taskId, task] as const));
      const seen = new Set<string>();
      const tasks = action.tasks.filter((task) => !task.archived && !seen.has(task.taskId) && seen.add(task.taskId) !== undefined).map((task) => taskOfRecord(task, byId.get(task.taskId)));
      const selected = state.selected !== null && tasks.some((t) => t.taskId === state.selected) ? state.selected : (tasks[0]?.taskId ?? null);
      return { ...state, tasks, selected };
    }
    case 'TaskCreated':
      return state.tasks.some((t) => t.taskId === action.task.taskId)
        ? { ...state, selected: action.task.taskId }
        : { ...state, tasks: [...state.tasks, taskOfRecord(action.task)], selected: action.task.taskId };
    case 'Select':
      return state.tasks.some((t) => t.taskId === action.taskId) ? { ...state, selected: action.taskId } : state;
    case 'Sending':
      return updateTask(state, action.taskId, (task) => ({ ...task, turn: { _tag: 'Sending' } }));
    case 'SendFailed':
      return updateTask({ ...state, notice: action.message }, action.taskId, (task) =>
        task.turn._tag === 'Sending' || task.turn._tag === 'Running' ? { ...task, turn: { _tag: 'Ended', status: 'failed', error: action.message } } : task,
      );
    case 'Notice':
      return { ...state, notice: action.message };
    case 'Inventory':
      return { ...state, inventory: action.plugins };
    case 'Skills':
      return { ...state, skills: action.skills };
    case 'Models':
      return { ...state, models: action.models };
    case 'TaskSettings':
      return updateTask(state, action.taskId, (task) => ({
        ...task,
        ...(action.model === undefined ? {} : { model: action.model }),
        ...(action.permissionMode === undefined ? {} : { permissionMode: action.permissionMode }),
      }));
    case 'TurnStarted':
      return updateTask(state, action.params.taskId, (task) => ({ ...task, threadId: action.params.threadId, turn: { _tag: 'Running', turnId: action.params.turnId } }));
    case 'Item': {
      const entry = entryOf(action.params.item);
      return updateTask(state, action.params.taskId, (task) => {
        const existing = task.entries.find((e) => e.itemId === entry.itemId);
        // A started agent message has no text yet; its deltas fill it, and the completed item has it all.
        const kept = action.params.phase === 'started' && existing !== undefined && entry.kind === 'agent' ? { ...entry, text: existing.text } : entry;
        return { ...task, entries: upsertEntry(task.entries, kept) };
      });
    }
    case 'Delta':
      return updateTask(state, action.params.taskId, (task) => {
        const existing = task.entries.find((e) => e.itemId === action.params.itemId);
        const entry: Entry = existing === undefined ? { itemId: action.params.itemId, kind: 'agent', text: action.params.delta, status: null, detail: null } : { ...existing, text: existing.text + action.params.delta };
        return { ...task, entries: upsertEntry(task.entries, entry) };
      });
    case 'TurnCompleted': {
      const { turn } = action.params;
      return updateTask(state, action.params.taskId, (task) => ({ ...task, turn: { _tag: 'Ended', status: turn.status, error: turn.error?.message ?? null } }));
    }
    case 'CardShown': {
      const entry: CardEntry = { model: action.model, stale: false };
      const at = state.cards.findIndex((c) => c.model.cardId === action.model.cardId);
      return { ...state, cards: at < 0 ? [...state.cards, entry] : state.cards.map((c, i) => (i === at ? entry : c)) };
    }
    case 'CardChanged':
      return { ...state, cards: state.cards.map((c) => (c.model.cardId === action.model.cardId ? { ...c, model: action.model } : c)) };
    case 'CardSettled':
      return { ...state, cards: state.cards.filter((c) => c.model.cardId !== action.cardId) };
    case 'CardsPending':
      return { ...state, cards: state.cards.filter((c) => !c.stale || action.cardIds.includes(c.model.cardId)) };
  }
}

/** The cards of a task (matched by its thread). */
export const cardsOfTask = (state: ChatState, task: TaskView): ReadonlyArray<CardEntry> => state.cards.filter((c) => c.model.threadId === task.threadId);

/** The selected task, if any. */
export const selectedTask = (state: ChatState): TaskView | undefined => state.tasks.find((t) => t.taskId === state.selected);

/** Whether the task's turn is under way (Stop applies). */
export const isBusy = (task: TaskView): boolean => task.turn._tag === 'Sending' || task.turn._tag === 'Running';
