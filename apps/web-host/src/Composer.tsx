/**
 * The composer: a `contenteditable` whose mentions are non-editable atoms, driven entirely by the
 * {@link Draft} model of `ComposerState` (every edit is taken from `beforeinput` and applied to the
 * model, then the content is drawn again and the caret put back), so the caret stops only before or
 * after a mention and Backspace removes a whole one. Typing `$` (skills, apps) or `@` (plugins) after
 * white space opens the picker filtered by what follows; the picker button opens it with a search
 * box. Copy and Send give Codex markdown (`@wework/mention-serializer`); pasted markdown brings its
 * mentions back. Clicking a skill mention asks to show its `SKILL.md`.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Mention, Segment, SkillMention } from '@wework/mention-serializer';
import { filterCandidates, type Candidate } from './Candidates.js';
import {
  acceptMention,
  deleteBackward,
  deleteForward,
  draftOfMarkdown,
  emptyDraft,
  insertMarkdown,
  insertText,
  isBlank,
  labelOf,
  lengthOf,
  markdownOf,
  moveCaret,
  replaceRange,
  sliceDoc,
  triggerAt,
  type Draft,
} from './ComposerState.js';

/** What the composer needs. */
export interface ComposerProps {
  readonly candidates: ReadonlyArray<Candidate>;
  /** Why Send is off (`null`: it is on when there is something to send). */
  readonly blocked: string | null;
  /** Whether the conversation has started (the plugin entry collapses to one icon). */
  readonly started: boolean;
  readonly busy: boolean;
  readonly onSend: (markdown: string) => void;
  readonly onStop: () => void;
  readonly onSkill: (mention: SkillMention) => void;
  /**
   * A draft to put in ("Try in chat"): its markdown goes in once per `nonce` (after what is typed, if
   * anything), its mentions as mentions, and the composer takes the focus.
   */
  readonly insert?: { readonly nonce: number; readonly markdown: string } | null;
}

const KIND_LABEL: Readonly<Record<Mention['kind'], string>> = { skill: 'Skill', app: 'App', plugin: 'Plugin' };

/** The units before child `index` of the editor (its children are the document's segments, one node each). */
const unitsBefore = (draft: Draft, index: number): number => lengthOf(draft.doc.slice(0, index));

/** The unit of a DOM position inside the editor (a position inside a mention snaps after it). */
function unitOfPosition(editor: HTMLElement, draft: Draft, node: Node, offset: number): number {
  if (node === editor) return unitsBefore(draft, offset);
  let child: Node | null = node;
  while (child !== null && child.parentNode !== editor) child = child.parentNode;
  if (child === null) return draft.caret;
  const index = Array.prototype.indexOf.call(editor.childNodes, child) as number;
  if (child.nodeType === Node.TEXT_NODE && child === node) return unitsBefore(draft, index) + offset;
  return unitsBefore(draft, index) + (draft.doc[index]?._tag === 'Mention' ? 1 : 0);
}

/** Puts the browser's caret at `unit`: inside a text node when one holds it, else between the editor's children. */
function placeCaret(editor: HTMLElement, draft: Draft, unit: number): void {
  const selection = editor.ownerDocument.getSelection();
  if (selection === null) return;
  let at = 0;
  const range = editor.ownerDocument.createRange();
  for (let index = 0; index < draft.doc.length; index++) {
    const segment = draft.doc[index];
    if (segment === undefined) break;
    const size = segment._tag === 'Text' ? segment.text.length : 1;
    if (segment._tag === 'Text' && unit >= at && unit <= at + size) {
      range.setStart(editor.childNodes[index] as Node, unit - at);
      range.collapse(true);
      selection.removeAllRanges();
      selection.addRange(range);
      return;
    }
    if (segment._tag === 'Mention' && unit === at) {
      range.setStart(editor, index);
      range.collapse(true);
      selection.removeAllRanges();
      selection.addRange(range);
      return;
    }
    at += size;
  }
  range.setStart(editor, editor.childNodes.length);
  range.collapse(true);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Draws the document into the editor: a text node per text segment, a non-editable atom per mention. */
function drawDoc(editor: HTMLElement, draft: Draft): void {
  const nodes = draft.doc.map((segment, index) => {
    if (segment._tag === 'Text') return editor.ownerDocument.createTextNode(segment.text);
    const atom = editor.ownerDocument.createElement('span');
    atom.className = `mention mention-${segment.kind}`;
    atom.contentEditable = 'false';
    atom.dataset['index'] = String(index);
    atom.setAttribute('role', 'img');
    atom.setAttribute('aria-label', `${KIND_LABEL[segment.kind]} ${segment.name}`);
    atom.textContent = labelOf(segment);
    return atom;
  });
  editor.replaceChildren(...nodes);
}

/** The composer with its toolbar, picker, Send and Stop. */
export function Composer(props: ComposerProps) {
  const editor = useRef<HTMLDivElement>(null);
  const [draft, setDraftState] = useState<Draft>(emptyDraft);
  const current = useRef<Draft>(emptyDraft);
  /** `null`: closed; `trigger`: opened by typing; `search`: opened by the button, with its own search box. */
  const [picker, setPicker] = useState<null | { readonly by: 'trigger' } | { readonly by: 'search'; readonly query: string; readonly sigil: '$' | '@' | null }>(null);
  const [active, setActive] = useState(0);
  const redraw = useRef(false);

  const setDraft = (next: Draft): void => {
    current.current = next;
    redraw.current = true;
    setDraftState(next);
    if (triggerAt(next) !== null) setPicker((p) => (p?.by === 'search' ? p : { by: 'trigger' }));
    else setPicker((p) => (p?.by === 'trigger' ? null : p));
    setActive(0);
  };

  useLayoutEffect(() => {
    const el = editor.current;
    if (el === null || !redraw.current) return;
    redraw.current = false;
    drawDoc(el, draft);
    if (el.ownerDocument.activeElement === el) placeCaret(el, draft, draft.caret);
  }, [draft]);

  // "Try in chat": the given draft goes in once per nonce, after what is typed, and the composer takes the focus.
  const inserted = useRef(0);
  useEffect(() => {
    const insert = props.insert;
    if (insert === null || insert === undefined || insert.nonce === inserted.current) return;
    inserted.current = insert.nonce;
    const now = current.current;
    const atEnd = { doc: now.doc, caret: lengthOf(now.doc) };
    setDraft(isBlank(now.doc) ? draftOfMarkdown(insert.markdown) : insertMarkdown(atEnd, ` ${insert.markdown}`));
    editor.current?.focus();
  }, [props.insert]);

  // The caret follows the browser's selection (a click, Shift+arrows); a position inside a mention is moved out of it.
  useEffect(() => {
    const onSelection = (): void => {
      const el = editor.current;
      const selection = document.getSelection();
      if (el === null || selection === null || selection.rangeCount === 0 || !el.contains(selection.anchorNode)) return;
      if (!selection.isCollapsed) return;
      const unit = unitOfPosition(el, current.current, selection.anchorNode as Node, selection.anchorOffset);
      if (unit !== current.current.caret) {
        current.current = { ...current.current, caret: unit };
        setDraftState(current.current);
        setPicker((p) => (triggerAt(current.current) === null && p?.by === 'trigger' ? null : p));
      }
      const inside = selection.anchorNode !== el && selection.anchorNode?.parentNode !== el;
      if (inside) placeCaret(el, current.current, unit);
    };
    document.addEventListener('selectionchange', onSelection);
    return () => document.removeEventListener('selectionchange', onSelection);
  }, []);

  /** The selection as units `[start, end)`. */
  const selectionUnits = (): readonly [number, number] => {
    const el = editor.current;
    const selection = document.getSelection();
    const d = current.current;
    if (el === null || selection === null || selection.rangeCount === 0) return [d.caret, d.caret];
    const range = selection.getRangeAt(0);
    if (!el.contains(range.startContainer) || !el.contains(range.endContainer)) return [d.caret, d.caret];
    const a = unitOfPosition(el, d, range.startContainer, range.startOffset);
    const b = unitOfPosition(el, d, range.endContainer, range.endOffset);
    return [Math.min(a, b), Math.max(a, b)];
  };

  const trigger = triggerAt(draft);
  const shown =
    picker === null ? [] : picker.by === 'trigger' ? (trigger === null ? [] : filterCandidates(props.candidates, trigger.sigil, trigger.query)) : filterCandidates(props.candidates, picker.sigil, picker.query);
  const open = picker !== null && (picker.by === 'search' || trigger !== null);

  const choose = (candidate: Candidate): void => {
    const d = current.current;
    const next = acceptMention(d, candidate.mention, picker?.by === 'trigger' ? triggerAt(d) : null);
    setPicker(null);
    setDraft(next);
    editor.current?.focus();
  };

  const send = (): void => {
    const d = current.current;
    if (isBlank(d.doc) || props.blocked !== null || props.busy) return;
    props.onSend(markdownOf(d.doc));
    setDraft(emptyDraft);
  };

  const pickerKeys = (event: KeyboardEvent): boolean => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (shown.length > 0) setActive((i) => (i + (event.key === 'ArrowDown' ? 1 : shown.length - 1)) % shown.length);
      return true;
    }
    if ((event.key === 'Enter' || event.key === 'Tab') && shown.length > 0) {
      event.preventDefault();
      const candidate = shown[Math.min(active, shown.length - 1)];
      if (candidate !== undefined) choose(candidate);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      setPicker(null);
      if (picker?.by === 'search') editor.current?.focus();
      return true;
    }
    return false;
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    if (pickerKeys(event)) return;
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    if ((event.key === 'ArrowLeft' || event.key === 'ArrowRight') && plain) {
      event.preventDefault();
      const [start, end] = selectionUnits();
      const d = current.current;
      const collapsedTo = start !== end ? (event.key === 'ArrowLeft' ? start : end) : moveCaret({ doc: d.doc, caret: start }, event.key === 'ArrowLeft' ? -1 : 1).caret;
      current.current = { doc: d.doc, caret: collapsedTo };
      setDraftState(current.current);
      if (editor.current !== null) placeCaret(editor.current, current.current, collapsedTo);
      return;
    }
    if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault();
      if (event.shiftKey) {
        const [start, end] = selectionUnits();
        setDraft(insertText({ doc: current.current.doc, caret: start }, '\n', end));
      } else send();
    }
  };

  const onBeforeInput = (event: InputEvent): void => {
    if (event.inputType === 'insertCompositionText') return; // not cancelable: taken from the DOM on `input`
    event.preventDefault();
    const [start, end] = selectionUnits();
    const d: Draft = { doc: current.current.doc, caret: start };
    switch (event.inputType) {
      case 'insertText':
      case 'insertReplacementText':
        return setDraft(insertText(d, event.data ?? event.dataTransfer?.getData('text/plain') ?? '', end));
      case 'insertFromPaste':
      case 'insertFromDrop':
        return setDraft(insertMarkdown(d, event.dataTransfer?.getData('text/plain') ?? '', end));
      case 'insertLineBreak':
      case 'insertParagraph':
        return undefined; // Enter is handled on keydown
      case 'deleteContentBackward':
      case 'deleteWordBackward':
      case 'deleteSoftLineBackward':
      case 'deleteHardLineBackward':
        return setDraft(deleteBackward(d, end));
      case 'deleteContentForward':
      case 'deleteWordForward':
      case 'deleteSoftLineForward':
      case 'deleteHardLineForward':
      case 'deleteByCut':
        return setDraft(deleteForward(d, end));
      default:
        return undefined;
    }
  };

  /** After an input method composed text (not cancelable), the DOM's text is read back: its text nodes, mentions kept. */
  const onInput = (): void => {
    const el = editor.current;
    if (el === null) return;
    const d = current.current;
    const doc = Array.from(el.childNodes).flatMap((node): Segment[] => {
      if (node.nodeType === Node.TEXT_NODE) return [{ _tag: 'Text' as const, text: node.textContent ?? '' }];
      const index = node instanceof HTMLElement ? Number(node.dataset['index']) : NaN;
      const segment = d.doc[index];
      return segment?._tag === 'Mention' ? [segment] : [{ _tag: 'Text' as const, text: node.textContent ?? '' }];
    });
    const selection = document.getSelection();
    const rebuilt = replaceRange(doc, 0, 0, []).doc;
    const caret = selection?.anchorNode != null ? unitOfPosition(el, { doc: rebuilt, caret: d.caret }, selection.anchorNode, selection.anchorOffset) : lengthOf(rebuilt);
    setDraft({ doc: rebuilt, caret });
  };

  const onCopy = (event: ClipboardEvent, cut: boolean): void => {
    const [start, end] = selectionUnits();
    if (start === end || event.clipboardData === null) return;
    event.preventDefault();
    event.clipboardData.setData('text/plain', markdownOf(sliceDoc(current.current.doc, start, end)));
    if (cut) setDraft(deleteForward({ doc: current.current.doc, caret: start }, end));
  };

  const onClick = (event: MouseEvent): void => {
    const atom = (event.target as HTMLElement | null)?.closest?.('.mention') as HTMLElement | null;
    const segment = atom === null ? undefined : current.current.doc[Number(atom.dataset['index'])];
    if (segment?._tag === 'Mention' && segment.kind === 'skill') props.onSkill(segment);
  };

  const plugins = props.candidates.filter((c) => c.mention.kind === 'plugin');
  const insertCandidate = (candidate: Candidate): void => {
    const d = current.current;
    setDraft(acceptMention(d, candidate.mention, null));
    editor.current?.focus();
  };

  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <div class="composer-toolbar" role="toolbar" aria-label="Composer tools">
        <button type="button" class="picker-button" aria-haspopup="listbox" aria-expanded={picker?.by === 'search'} onClick={() => setPicker({ by: 'search', query: '', sigil: null })}>
          Add skill, app or plugin
        </button>
        {plugins.length > 0 && (
          <div class={`plugin-entry ${props.started ? 'plugin-entry-started' : ''}`}>
            {!props.started && (
              <ul class="plugin-previews" aria-label="Plugins">
                {plugins.slice(0, 3).map((c) => (
                  <li key={c.key}>
                    <button type="button" class="plugin-preview" title={c.detail} onClick={() => insertCandidate(c)}>
                      <span aria-hidden="true" class="plugin-icon">
                        {c.mention.name.slice(0, 1).toUpperCase()}
                      </span>
                      {c.mention.name}
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <button type="button" class="plugin-icon-button" aria-label="Plugins" title="Plugins" onClick={() => setPicker({ by: 'search', query: '', sigil: '@' })}>
              <span aria-hidden="true">⊕</span>
            </button>
          </div>
        )}
      </div>
      {open && (
        <div class="picker">
          {picker?.by === 'search' && (
            <input
              type="search"
              class="picker-search"
              aria-label="Search skills, apps and plugins"
              aria-controls="mention-picker"
              aria-activedescendant={shown.length > 0 ? `mention-option-${Math.min(active, shown.length - 1)}` : undefined}
              autoFocus
              value={picker.query}
              onInput={(event) => {
                setPicker({ by: 'search', sigil: picker.sigil, query: (event.currentTarget as HTMLInputElement).value });
                setActive(0);
              }}
              onKeyDown={(event) => void pickerKeys(event)}
            />
          )}
          <ul id="mention-picker" class="picker-list" role="listbox" aria-label="Mentions">
            {shown.map((c, i) => (
              <li
                key={c.key}
                id={`mention-option-${i}`}
                role="option"
                aria-selected={i === Math.min(active, shown.length - 1)}
                class={`picker-option ${i === Math.min(active, shown.length - 1) ? 'picker-option-active' : ''}`}
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(c);
                }}
              >
                <span class={`mention mention-${c.mention.kind}`}>{labelOf(c.mention)}</span> <span class="picker-kind">{KIND_LABEL[c.mention.kind]}</span>
                <span class="picker-detail">{c.detail}</span>
              </li>
            ))}
            {shown.length === 0 && <li class="picker-empty">Nothing matches.</li>}
          </ul>
        </div>
      )}
      <div
        ref={editor}
        id="composer-input"
        class="composer-input"
        contentEditable
        role="textbox"
        aria-multiline="true"
        aria-label="Message"
        aria-autocomplete="list"
        aria-controls={open ? 'mention-picker' : undefined}
        aria-activedescendant={open && picker?.by === 'trigger' && shown.length > 0 ? `mention-option-${Math.min(active, shown.length - 1)}` : undefined}
        data-placeholder="Message Codex ($ for skills and apps, @ for plugins)"
        data-empty={draft.doc.length === 0 ? 'true' : 'false'}
        onKeyDown={onKeyDown}
        onBeforeInput={onBeforeInput}
        onInput={onInput}
        onCopy={(event) => onCopy(event, false)}
        onCut={(event) => onCopy(event, true)}
        onClick={onClick}
      />
      {props.blocked !== null && (
        <p class="composer-blocked" role="alert">
          {props.blocked}
        </p>
      )}
      <div class="composer-actions">
        <button type="submit" class="primary" disabled={props.busy || props.blocked !== null || isBlank(draft.doc)}>
          Send
        </button>
        <button type="button" disabled={!props.busy} onClick={props.onStop}>
          Stop
        </button>
      </div>
    </form>
  );
}
