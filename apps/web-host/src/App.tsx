/**
 * The chat: the tasks list, the selected task's transcript with its cards, the turn status, the
 * composer (`Composer.tsx`) with Send and Stop, the task's model and permission pickers
 * (`Pickers.tsx`), and a new-task control with its permission mode. It renders the
 * {@link ChatState} and calls the {@link ChatActions}; it keeps no protocol state of its own.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { tokenize, type SkillMention } from '@wework/mention-serializer';
import type { HostReply, PermissionMode } from '@wework/host-protocol';
import { candidatesOf } from './Candidates.js';
import { Composer } from './Composer.js';
import { modelLabelOf, ModelPicker, modelProblem, modeLabel, MODES, PermissionPicker } from './Pickers.js';
import { SkillPreview, type SkillPreviewState } from './SkillPreview.js';
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
  /** Sends a message; the task's chosen model and permission mode go with it (the executor saves them first). */
  readonly send: (taskId: string, markdown: string, settings: { readonly model: string | null; readonly permissionMode: PermissionMode }) => void;
  /** Reads a skill's `SKILL.md` (`skills/read`). */
  readonly readSkill: (path: string) => Promise<SkillPreviewState>;
  readonly chooseModel: (taskId: string, model: string | null) => void;
  readonly chooseMode: (taskId: string, mode: PermissionMode) => void;
  readonly stop: (taskId: string) => void;
  readonly changeCard: (model: CardModel) => void;
  readonly answerCard: (cardId: string, reply: HostReply) => void;
}


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

/** The whole page. */
const PAGES: ReadonlyArray<{ readonly page: Page; readonly label: string }> = [
  { page: 'chat', label: 'Chat' },
  { page: 'plugins', label: 'Plugins' },
];

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
  return (
    <div class="new-task">
      <PermissionPicker id="permission-mode" mode={mode} onChange={setMode} />
      <button type="button" class="primary" disabled={disabled} onClick={() => onCreate(mode)}>
        New task
      </button>
    </div>
  );
}

function EntryView({ entry, onSkill }: { readonly entry: Entry; readonly onSkill: (mention: SkillMention) => void }) {
  switch (entry.kind) {
    case 'user':
      return (
        <li class="entry entry-user">
          <span class="visually-hidden">You: </span>
          <p class="bubble">
            <MessageText markdown={entry.text} onSkill={onSkill} />
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

/** A sent message: its text, with skill, app and plugin mentions as badges (never the protocol strings they are written as); a skill's badge shows its SKILL.md. */
function MessageText({ markdown, onSkill }: { readonly markdown: string; readonly onSkill: (mention: SkillMention) => void }) {
  return (
    <>
      {tokenize(markdown).map((token) =>
        token._tag === 'Text' ? (
          token.text
        ) : token.mention.kind === 'skill' ? (
          <button type="button" class="mention mention-skill" aria-label={`Skill ${token.mention.name}`} onClick={() => onSkill(token.mention as SkillMention)}>
            ${token.mention.name}
          </button>
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
  const end = useRef<HTMLDivElement>(null);
  const [preview, setPreview] = useState<SkillPreviewState | null>(null);
  const cards = cardsOfTask(state, task);
  const busy = isBusy(task);
  const candidates = useMemo(() => candidatesOf(state.inventory, state.skills), [state.inventory, state.skills]);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [task.entries.length, cards.length]);
  const mode = (MODES.find((m) => m.mode === task.permissionMode)?.mode ?? 'full-access') as PermissionMode;
  const problem = modelProblem(task.model, state.models);
  const blocked = state.connection !== 'open' ? 'Not connected to the executor.' : problem;
  const showSkill = (mention: SkillMention): void => {
    setPreview({ _tag: 'Loading', name: mention.name });
    void actions.readSkill(mention.path).then(setPreview);
  };
  return (
    <>
      <h2 class="task-title">
        Conversation <span class="task-mode">{modeLabel(task.permissionMode)}</span> <span class="task-model">{modelLabelOf(task.model, state.models)}</span>
      </h2>
      <div class="task-settings">
        <ModelPicker id={`model-${task.taskId}`} value={task.model} models={state.models ?? []} onChange={(model) => actions.chooseModel(task.taskId, model)} />
        <PermissionPicker id={`permission-${task.taskId}`} mode={mode} onChange={(next) => actions.chooseMode(task.taskId, next)} />
      </div>
      <ol class="transcript" aria-label="Transcript">
        {task.entries.map((entry) => (
          <EntryView key={entry.itemId} entry={entry} onSkill={showSkill} />
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
      {preview !== null && <SkillPreview state={preview} onClose={() => setPreview(null)} />}
      <Composer
        candidates={candidates}
        blocked={blocked}
        started={task.entries.length > 0}
        busy={busy}
        onSend={(markdown) => actions.send(task.taskId, markdown, { model: task.model, permissionMode: mode })}
        onStop={() => actions.stop(task.taskId)}
        onSkill={showSkill}
        insert={insert !== null && insert.taskId === task.taskId ? insert : null}
      />
    </>
  );
}
