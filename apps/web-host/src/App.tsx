/**
 * The chat: the tasks list, the selected task's transcript with its cards, the turn status, the
 * composer with Send and Stop, and a new-task control with its permission mode. It renders the
 * {@link ChatState} and calls the {@link ChatActions}; it keeps no protocol state of its own.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { tokenize } from '@wework/mention-serializer';
import type { HostReply, PermissionMode } from '@wework/host-protocol';
import type { CardModel } from './CardForm.js';
import { cardsOfTask, isBusy, selectedTask, type ChatState, type Entry, type TaskView, type TurnStatus } from './ChatState.js';
import { CardView } from './CardView.js';
import { PluginsPage, type PluginsActions } from './PluginsPage.js';
import type { PluginsState } from './PluginsState.js';

/** The pages of the host. */
export type Page = 'chat' | 'plugins';

/** A draft to put into the selected task's composer ("Try in chat"); a new `nonce` inserts again. */
export interface ComposerInsert {
  readonly nonce: number;
  readonly taskId: string;
  readonly markdown: string;
}

/** What the navigation and the Plugins page need. */
export interface PagesProps {
  readonly page: Page;
  readonly navigate: (page: Page) => void;
  readonly plugins: PluginsState;
  readonly pluginActions: PluginsActions;
  readonly insert: ComposerInsert | null;
}

/** What the chat can ask for. */
export interface ChatActions {
  readonly createTask: (mode: PermissionMode) => void;
  readonly select: (taskId: string) => void;
  readonly send: (taskId: string, markdown: string) => void;
  readonly stop: (taskId: string) => void;
  readonly changeCard: (model: CardModel) => void;
  readonly answerCard: (cardId: string, reply: HostReply) => void;
}

const MODES: ReadonlyArray<{ readonly mode: PermissionMode; readonly label: string }> = [
  { mode: 'read-only', label: 'Read only' },
  { mode: 'workspace', label: 'Workspace' },
  { mode: 'full-access', label: 'Full access' },
];

const CONNECTION_TEXT: Readonly<Record<ChatState['connection'], string>> = {
  connecting: 'Connecting…',
  open: 'Connected',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
};

function turnText(turn: TurnStatus): string {
  switch (turn._tag) {
    case 'Idle':
      return 'Ready';
    case 'Sending':
      return 'Sending…';
    case 'Running':
      return 'Working…';
    case 'Ended':
      return turn.status === 'completed' ? 'Done' : turn.status === 'interrupted' ? 'Stopped' : `Failed${turn.error === null ? '' : `: ${turn.error}`}`;
  }
}

const PAGES: ReadonlyArray<{ readonly page: Page; readonly label: string }> = [
  { page: 'chat', label: 'Chat' },
  { page: 'plugins', label: 'Plugins' },
];

/** The whole page. */
export function App({ state, actions, pages }: { readonly state: ChatState; readonly actions: ChatActions; readonly pages: PagesProps }) {
  const task = selectedTask(state);
  return (
    <div class={`layout layout-${pages.page}`}>
      <header class="topbar">
        <h1>Wework web host</h1>
        <nav class="pages" aria-label="Pages">
          <ul>
            {PAGES.map((p) => (
              <li key={p.page}>
                <a
                  href={`#${p.page}`}
                  class="page-link"
                  aria-current={pages.page === p.page ? 'page' : undefined}
                  onClick={(event) => {
                    event.preventDefault();
                    pages.navigate(p.page);
                  }}
                >
                  {p.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p class={`connection connection-${state.connection}`} role="status" aria-live="polite">
          {CONNECTION_TEXT[state.connection]}
        </p>
      </header>
      {pages.page === 'plugins' ? (
        <PluginsPage state={pages.plugins} actions={pages.pluginActions} connected={state.connection === 'open'} />
      ) : (
        <>
      <nav class="sidebar" aria-label="Tasks">
        <NewTask onCreate={actions.createTask} disabled={state.connection !== 'open'} />
        <h2 class="visually-hidden">Tasks</h2>
        <ul class="tasks">
          {state.tasks.map((t, i) => {
            const waiting = cardsOfTask(state, t).length;
            return (
              <li key={t.taskId}>
                <button type="button" class="task-button" aria-current={t.taskId === state.selected ? 'page' : undefined} onClick={() => actions.select(t.taskId)}>
                  <span>Task {i + 1}</span>
                  <span class="task-status">{waiting > 0 ? `${waiting} waiting` : turnText(t.turn)}</span>
                </button>
              </li>
            );
          })}
        </ul>
        {state.tasks.length === 0 && <p class="empty">No tasks yet.</p>}
      </nav>
      <main class="chat">
        {state.notice !== null && (
          <p class="notice" role="alert">
            {state.notice}
          </p>
        )}
        {task === undefined ? <p class="empty">Create a task to start a conversation.</p> : <TaskPane key={task.taskId} state={state} task={task} actions={actions} insert={pages.insert} />}
      </main>
        </>
      )}
    </div>
  );
}

function NewTask({ onCreate, disabled }: { readonly onCreate: (mode: PermissionMode) => void; readonly disabled: boolean }) {
  const [mode, setMode] = useState<PermissionMode>('full-access');
  const [confirming, setConfirming] = useState<PermissionMode | null>(null);
  return (
    <div class="new-task">
      <label for="permission-mode">Permission mode</label>
      <select
        id="permission-mode"
        value={mode}
        onChange={(event) => {
          const next = (event.currentTarget as HTMLSelectElement).value as PermissionMode;
          // Switching to Full access from another mode asks first (the runtime permission modes' rule).
          if (next === 'full-access' && mode !== 'full-access') {
            (event.currentTarget as HTMLSelectElement).value = mode;
            setConfirming(mode);
          } else setMode(next);
        }}
      >
        {MODES.map((m) => (
          <option value={m.mode}>{m.label}</option>
        ))}
      </select>
      {confirming !== null && (
        <div class="confirm" role="alertdialog" aria-labelledby="full-access-title" aria-describedby="full-access-text">
          <p id="full-access-title" class="confirm-title">
            Use Full access?
          </p>
          <p id="full-access-text">Codex will run file, terminal and network operations without asking. Plugin forms still ask you.</p>
          <div class="card-actions">
            <button
              type="button"
              class="danger"
              onClick={() => {
                setMode('full-access');
                setConfirming(null);
              }}
            >
              Use Full access
            </button>
            <button type="button" onClick={() => setConfirming(null)}>
              Keep {MODES.find((m) => m.mode === confirming)?.label}
            </button>
          </div>
        </div>
      )}
      <button type="button" class="primary" disabled={disabled} onClick={() => onCreate(mode)}>
        New task
      </button>
    </div>
  );
}

function EntryView({ entry }: { readonly entry: Entry }) {
  switch (entry.kind) {
    case 'user':
      return (
        <li class="entry entry-user">
          <span class="visually-hidden">You: </span>
          <p class="bubble">
            <MessageText markdown={entry.text} />
          </p>
        </li>
      );
    case 'agent':
      return (
        <li class="entry entry-agent" data-item-id={entry.itemId}>
          <span class="visually-hidden">Codex: </span>
          <p class="bubble">{entry.text}</p>
        </li>
      );
    case 'reasoning':
      return entry.text === '' ? null : (
        <li class="entry entry-reasoning">
          <p>{entry.text}</p>
        </li>
      );
    default: {
      const what = entry.kind === 'command' ? 'Command' : entry.kind === 'tool' ? 'Tool' : entry.kind === 'fileChange' ? 'Files' : 'Item';
      return (
        <li class={`entry entry-compact entry-${entry.kind}`} data-status={entry.status ?? ''}>
          <details>
            <summary>
              <span class="compact-kind">{what}</span> <code>{entry.text}</code> {entry.status !== null && <span class={`status status-${entry.status}`}>{entry.status}</span>}
            </summary>
            {entry.detail !== null && <pre class="detail">{entry.detail}</pre>}
          </details>
        </li>
      );
    }
  }
}

const MENTION_KIND: Readonly<Record<'skill' | 'app' | 'plugin', string>> = { skill: 'Skill', app: 'App', plugin: 'Plugin' };

/** A sent message: its text, with skill, app and plugin mentions as badges (never the protocol strings they are written as). */
function MessageText({ markdown }: { readonly markdown: string }) {
  return (
    <>
      {tokenize(markdown).map((token) =>
        token._tag === 'Text' ? (
          token.text
        ) : (
          <span class={`mention mention-${token.mention.kind}`} role="img" aria-label={`${MENTION_KIND[token.mention.kind]} ${token.mention.name}`}>
            {token.mention.kind === 'plugin' ? '@' : '$'}
            {token.mention.name}
          </span>
        ),
      )}
    </>
  );
}

function TaskPane({ state, task, actions, insert }: { readonly state: ChatState; readonly task: TaskView; readonly actions: ChatActions; readonly insert: ComposerInsert | null }) {
  const [draft, setDraft] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const inserted = useRef(0);
  useEffect(() => {
    // "Try in chat": the plugin's mention (and its default prompt) goes into this task's composer once, which gets the focus.
    if (insert === null || insert.taskId !== task.taskId || insert.nonce === inserted.current) return;
    inserted.current = insert.nonce;
    setDraft((current) => (current.trim() === '' ? insert.markdown : `${current} ${insert.markdown}`));
    input.current?.focus();
  }, [insert, task.taskId]);
  const mentions = tokenize(draft).filter((token) => token._tag !== 'Text');
  const cards = cardsOfTask(state, task);
  const busy = isBusy(task);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [task.entries.length, cards.length]);
  const sendDraft = (): void => {
    if (draft.trim() === '' || busy || state.connection !== 'open') return;
    actions.send(task.taskId, draft);
    setDraft('');
  };
  const mode = MODES.find((m) => m.mode === task.permissionMode)?.label ?? 'Full access';
  return (
    <>
      <h2 class="task-title">
        Conversation <span class="task-mode">{mode}</span>
      </h2>
      <ol class="transcript" aria-label="Transcript">
        {task.entries.map((entry) => (
          <EntryView key={entry.itemId} entry={entry} />
        ))}
      </ol>
      <div class="cards">
        {cards.map((card) => (
          <CardView key={card.model.cardId} model={card.model} stale={card.stale} onChange={actions.changeCard} onAnswer={(reply) => actions.answerCard(card.model.cardId, reply)} />
        ))}
      </div>
      <div ref={end} />
      <p class={`turn-status turn-${task.turn._tag.toLowerCase()}`} role="status" aria-live="polite">
        {turnText(task.turn)}
      </p>
      <form
        class="composer"
        onSubmit={(event) => {
          event.preventDefault();
          sendDraft();
        }}
      >
        <label for="composer-input" class="visually-hidden">
          Message
        </label>
        <textarea
          ref={input}
          id="composer-input"
          rows={2}
          placeholder="Message Codex"
          value={draft}
          onInput={(event) => setDraft((event.currentTarget as HTMLTextAreaElement).value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
              event.preventDefault();
              sendDraft();
            }
          }}
        />
        {mentions.length > 0 && (
          <p class="composer-mentions">
            <span>Mentions: </span>
            <MessageText markdown={mentions.map((token) => draft.slice(token.source.start, token.source.end)).join(' ')} />
          </p>
        )}
        <div class="composer-actions">
          <button type="submit" class="primary" disabled={busy || draft.trim() === '' || state.connection !== 'open'}>
            Send
          </button>
          <button type="button" disabled={!busy} onClick={() => actions.stop(task.taskId)}>
            Stop
          </button>
        </div>
      </form>
    </>
  );
}
