/**
 * A skill's `SKILL.md`, shown when its mention is clicked (in the composer or in a sent message): the
 * text as the executor read it (`skills/read`), in a dialog with a Close button, never as HTML.
 */
import { useEffect, useRef } from 'preact/hooks';

/** What the preview shows: loading, the file's text, or why it could not be read. */
export type SkillPreviewState =
  | { readonly _tag: 'Loading'; readonly name: string }
  | { readonly _tag: 'Loaded'; readonly name: string; readonly markdown: string; readonly truncated: boolean }
  | { readonly _tag: 'Failed'; readonly name: string; readonly message: string };

/** The preview dialog. */
export function SkillPreview({ state, onClose }: { readonly state: SkillPreviewState; readonly onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div
      class="skill-preview"
      role="dialog"
      aria-modal="false"
      aria-labelledby="skill-preview-title"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <div class="skill-preview-head">
        <h3 id="skill-preview-title">Skill ${state.name}</h3>
        <button type="button" ref={close} onClick={onClose}>
          Close
        </button>
      </div>
      {state._tag === 'Loading' && <p>Loading SKILL.md…</p>}
      {state._tag === 'Failed' && <p role="alert">{state.message}</p>}
      {state._tag === 'Loaded' && (
        <>
          <pre class="skill-markdown">{state.markdown}</pre>
          {state.truncated && <p class="empty">The file is longer; only its beginning is shown.</p>}
        </>
      )}
    </div>
  );
}
