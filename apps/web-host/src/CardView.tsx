/**
 * A card in the transcript: a plugin form, an approval or Codex's input request. Every control is a
 * native, labelled form control (radios and checkboxes in a fieldset with its legend, inputs with a
 * label), so it is reachable by keyboard and announced by screen readers; problems are shown next to
 * their field (`aria-describedby`, `aria-invalid`) before anything is sent.
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import {
  fieldProblem,
  linkReply,
  offersCancel,
  offersDecline,
  selectOption,
  setText,
  submit,
  submitOption,
  toggleOption,
  type CardModel,
  type Field,
  type FieldProblem,
  type ToggleOutcome,
  type UrlLink,
} from './CardForm.js';
import type { HostReply } from '@wework/host-protocol';

/** Props of {@link CardView}. */
export interface CardViewProps {
  readonly model: CardModel;
  /** The connection this card came on dropped: it cannot be answered until it is shown again. */
  readonly stale: boolean;
  readonly onChange: (model: CardModel) => void;
  readonly onAnswer: (reply: HostReply) => void;
}

const INPUT_TYPES: Readonly<Record<string, 'email' | 'url' | 'date'>> = { email: 'email', uri: 'url', url: 'url', date: 'date' };

const domId = (cardId: string, fieldId: string, part: string): string => `card-${encodeURIComponent(cardId)}-${encodeURIComponent(fieldId)}-${part}`.replace(/%/g, '_');

function limitsHint(field: Field): string | null {
  if (field.kind === 'multi') {
    const { minItems: min, maxItems: max } = field;
    if (min !== null && max !== null) return min === max ? `Pick ${min}.` : `Pick ${min} to ${max}.`;
    if (min !== null) return `Pick at least ${min}.`;
    if (max !== null) return `Pick up to ${max}.`;
    return 'Pick any.';
  }
  if (field.kind === 'number') {
    const kind = field.integer ? 'A whole number' : 'A number';
    if (field.minimum !== null && field.maximum !== null) return `${kind} from ${field.minimum} to ${field.maximum}.`;
    if (field.minimum !== null) return `${kind}, ${field.minimum} or more.`;
    if (field.maximum !== null) return `${kind}, ${field.maximum} or less.`;
    return `${kind}.`;
  }
  if (field.kind === 'text' && field.format !== null) return field.format === 'date' ? 'A date.' : field.format === 'email' ? 'An email address.' : field.format === 'uri' || field.format === 'url' ? 'A web address.' : null;
  return null;
}

/**
 * A plugin's link to open (a `url` card): the message, the scheme and host apart from the rest, and Open /
 * Decline / Cancel. Nothing opens the link but a click on Open, in a new tab without an opener; the answer
 * (Open) is sent with that click. A link that fails the host's own check is not offered, only Decline / Cancel.
 */
function UrlCardView({ model, link, stale, onAnswer }: { readonly model: CardModel; readonly link: UrlLink | null; readonly stale: boolean; readonly onAnswer: (reply: HostReply) => void }) {
  const titleId = `card-${encodeURIComponent(model.cardId)}-title`.replace(/%/g, '_');
  const answer = (choice: 'accept' | 'decline' | 'cancel'): void => {
    const reply = link === null ? (choice === 'accept' ? null : { action: choice }) : linkReply(link, choice);
    if (reply !== null) onAnswer(reply);
  };
  const open = (): void => {
    if (link === null || link.labels.accept === null) return;
    window.open(link.href, '_blank', 'noopener,noreferrer');
    answer('accept');
  };
  return (
    <section class={`card card-url${stale ? ' card-stale' : ''}`} aria-labelledby={titleId} data-card-id={model.cardId} data-origin={model.origin}>
      <h3 id={titleId} class="card-title">
        {model.message ?? 'A plugin asks you to open a link'}
      </h3>
      {model.serverName !== null && <p class="card-source">From {model.serverName}</p>}
      {link === null ? (
        <p class="card-error" role="alert">
          This link cannot be opened here.
        </p>
      ) : (
        <p class="url-target">
          Opens <strong class="url-host">{link.host}</strong> over <span class="url-scheme">{link.scheme === 'https' ? 'https (secure)' : 'http (this computer only)'}</span>
        </p>
      )}
      {stale && (
        <p class="card-waiting" role="status">
          Reconnecting — this card is shown again once the connection is back.
        </p>
      )}
      <div class="card-actions">
        {link !== null && link.labels.accept !== null && (
          <button type="button" class="primary" disabled={stale} onClick={open}>
            {link.labels.accept}
          </button>
        )}
        <button type="button" disabled={stale} onClick={() => answer('decline')}>
          {link?.labels.decline ?? 'Decline'}
        </button>
        <button type="button" disabled={stale} onClick={() => answer('cancel')}>
          {link?.labels.cancel ?? 'Cancel'}
        </button>
      </div>
    </section>
  );
}

/** The card. */
export function CardView({ model, stale, onChange, onAnswer }: CardViewProps) {
  if (model.kind === 'url') return <UrlCardView model={model} link={model.link ?? null} stale={stale} onAnswer={onAnswer} />;
  return <FormCardView model={model} stale={stale} onChange={onChange} onAnswer={onAnswer} />;
}

function FormCardView({ model, stale, onChange, onAnswer }: CardViewProps) {
  const [problems, setProblems] = useState<ReadonlyArray<FieldProblem>>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const problemOf = (id: string | null): string | null => problems.find((p) => p.fieldId === id)?.message ?? null;
  const change = (next: CardModel, fieldId: string): void => {
    onChange(next);
    // A problem shown before is updated as the user fixes it.
    setProblems((shown) => shown.flatMap((p) => (p.fieldId !== fieldId ? [p] : (() => {
      const field = next.fields.find((f) => f.id === fieldId);
      const message = field === undefined ? null : fieldProblem(field);
      return message === null ? [] : [{ fieldId, message }];
    })())));
  };
  const send = (outcome: ReturnType<typeof submit>): void => {
    if (outcome._tag === 'Problems') {
      setProblems(outcome.problems);
      const first = outcome.problems[0];
      if (first?.fieldId != null) document.getElementById(domId(model.cardId, first.fieldId, 'input'))?.focus();
      return;
    }
    setProblems([]);
    onAnswer(outcome.reply);
  };
  const titleId = `card-${encodeURIComponent(model.cardId)}-title`.replace(/%/g, '_');
  const heading = model.message ?? model.fields[0]?.header ?? 'A question';
  const lone = model.submitOnSelect ? model.fields[0] : undefined;

  return (
    <section class={`card card-${model.kind}${stale ? ' card-stale' : ''}`} aria-labelledby={titleId} data-card-id={model.cardId} data-origin={model.origin}>
      <h3 id={titleId} class="card-title">
        {heading}
      </h3>
      {model.serverName !== null && <p class="card-source">From {model.serverName}</p>}
      {model.error !== null && model.error !== undefined && (
        <p class="card-error" role="alert">
          The executor did not take the last answer: {model.error.message} ({model.error.attemptsLeft} {model.error.attemptsLeft === 1 ? 'try' : 'tries'} left)
        </p>
      )}
      {stale && (
        <p class="card-waiting" role="status">
          Reconnecting — this card is shown again once the connection is back.
        </p>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!stale) send(submit(model));
        }}
      >
        <fieldset class="card-body" disabled={stale}>
          {lone !== undefined && lone.kind === 'choice' ? (
            <div class="choice-buttons" role="group" aria-label={lone.header}>
              {model.message !== null && lone.question !== model.message && <p class="question">{lone.question}</p>}
              {lone.options.map((option, index) => (
                <button
                  type="button"
                  class={`option-button${index === lone.selected ? ' option-default' : ''}`}
                  aria-describedby={option.description === '' ? undefined : domId(model.cardId, lone.id, `desc-${index}`)}
                  onClick={() => send(submitOption(model, lone.id, index))}
                >
                  <span class="option-label">{option.label}</span>
                  {option.description !== '' && (
                    <span class="option-description" id={domId(model.cardId, lone.id, `desc-${index}`)}>
                      {option.description}
                    </span>
                  )}
                </button>
              ))}
            </div>
          ) : (
            model.fields.map((field) => (
              <FieldView
                key={field.id}
                cardId={model.cardId}
                field={field}
                problem={problemOf(field.id)}
                onSelect={(index) => change(selectOption(model, field.id, index), field.id)}
                onToggle={(index) => {
                  const [next, outcome] = toggleOption(model, field.id, index);
                  if (outcome === 'refused' && field.kind === 'multi') setNotice(`${field.header}: you can pick at most ${field.maxItems}. Unpick one first.`);
                  else setNotice(null);
                  change(next, field.id);
                  return outcome;
                }}
                onText={(value) => change(setText(model, field.id, value), field.id)}
              />
            ))
          )}
          {problemOf(null) !== null && (
            <p class="problem" role="alert">
              {problemOf(null)}
            </p>
          )}
          <p class="card-notice" role="status" aria-live="polite">
            {notice ?? ''}
          </p>
          <div class="card-actions">
            {lone === undefined && (
              <button type="submit" class="primary">
                Submit
              </button>
            )}
            {offersCancel(model) && (
              <button type="button" onClick={() => onAnswer({ action: 'cancel' })}>
                Cancel
              </button>
            )}
            {offersDecline(model) && (
              <button type="button" onClick={() => onAnswer({ action: 'decline' })}>
                Decline
              </button>
            )}
          </div>
        </fieldset>
      </form>
    </section>
  );
}

interface FieldViewProps {
  readonly cardId: string;
  readonly field: Field;
  readonly problem: string | null;
  readonly onSelect: (index: number) => void;
  /** Picks or unpicks; a refused pick leaves the box clear. */
  readonly onToggle: (index: number) => ToggleOutcome;
  readonly onText: (value: string) => void;
}

function FieldView({ cardId, field, problem, onSelect, onToggle, onText }: FieldViewProps) {
  const hint = limitsHint(field);
  const hintId = domId(cardId, field.id, 'hint');
  const problemId = domId(cardId, field.id, 'problem');
  const describedBy = [field.question !== field.header ? domId(cardId, field.id, 'question') : null, hint === null ? null : hintId, problem === null ? null : problemId].filter((p) => p !== null).join(' ') || undefined;
  const question = field.question !== field.header && (
    <span class="question" id={domId(cardId, field.id, 'question')}>
      {field.question}
    </span>
  );
  const hintLine = hint !== null && (
    <span class="hint" id={hintId}>
      {hint}
    </span>
  );
  const problemLine = problem !== null && (
    <span class="problem" id={problemId} role="alert">
      {problem}
    </span>
  );
  if (field.kind === 'choice' || field.kind === 'multi') {
    const multi = field.kind === 'multi';
    return (
      <fieldset class="field" data-field-id={field.id} aria-describedby={describedBy} aria-invalid={problem !== null}>
        <legend>{field.header}</legend>
        {question}
        {hintLine}
        <div class="options">
          {field.options.map((option, index) => {
            const id = index === 0 ? domId(cardId, field.id, 'input') : domId(cardId, field.id, `option-${index}`);
            const checked = multi ? field.selected.includes(index) : field.selected === index;
            return (
              <label class="option" for={id}>
                <input
                  id={id}
                  type={multi ? 'checkbox' : 'radio'}
                  name={domId(cardId, field.id, 'group')}
                  checked={checked}
                  onChange={(event) => {
                    if (multi) {
                      // The model decides: a pick beyond maxItems is refused and the box stays clear.
                      if (onToggle(index) === 'refused') (event.currentTarget as HTMLInputElement).checked = false;
                    } else onSelect(index);
                  }}
                />
                <span class="option-label">{option.label}</span>
                {option.description !== '' && <span class="option-description">{option.description}</span>}
              </label>
            );
          })}
        </div>
        {problemLine}
      </fieldset>
    );
  }
  const inputId = domId(cardId, field.id, 'input');
  const type = field.kind === 'number' ? 'number' : field.secret ? 'password' : (INPUT_TYPES[field.format ?? ''] ?? 'text');
  const limits: Record<string, string | number | undefined> =
    field.kind === 'number'
      ? { inputMode: field.integer ? 'numeric' : 'decimal', step: field.integer ? '1' : 'any', min: field.minimum ?? undefined, max: field.maximum ?? undefined }
      : { maxLength: field.maxLength ?? undefined, autoComplete: field.secret ? 'off' : undefined };
  const inputProps = { id: inputId, type, value: field.value, 'aria-describedby': describedBy, 'aria-invalid': problem !== null, ...limits };
  return (
    <div class="field" data-field-id={field.id}>
      <label for={inputId} class="field-label">
        {field.header}
      </label>
      {question}
      {hintLine}
      {/* The input's attributes depend on its kind (number limits, text length); preact's typed union of input kinds cannot take them computed. */}
      {h('input', { ...inputProps, onInput: (event: Event) => onText((event.currentTarget as HTMLInputElement).value) } as never)}
      {problemLine}
    </div>
  );
}
