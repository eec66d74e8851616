/**
 * The task's pickers: the permission mode (Read only / Workspace / Full access; switching to Full
 * access asks first) and the model (Codex's order from `models/list`, hidden models absent; a saved
 * model that is no longer offered is shown as unavailable and blocks sending).
 */
import { useState } from 'preact/hooks';
import type { PermissionMode } from '@wework/host-protocol';

/** The permission modes, in the order they are offered. */
export const MODES: ReadonlyArray<{ readonly mode: PermissionMode; readonly label: string }> = [
  { mode: 'read-only', label: 'Read only' },
  { mode: 'workspace', label: 'Workspace' },
  { mode: 'full-access', label: 'Full access' },
];

/** The label of a mode (absent: Full access, the runtime's default). */
export const modeLabel = (mode: string | null): string => MODES.find((m) => m.mode === mode)?.label ?? 'Full access';

/** A model the picker offers. */
export interface ModelChoice {
  readonly model: string;
  readonly displayName: string;
  readonly isDefault: boolean;
}

/** The permission mode select with the Full access confirmation. */
export function PermissionPicker({ id, mode, onChange }: { readonly id: string; readonly mode: PermissionMode; readonly onChange: (mode: PermissionMode) => void }) {
  const [confirming, setConfirming] = useState<PermissionMode | null>(null);
  return (
    <div class="picker-field">
      <label for={id}>Permission mode</label>
      <select
        id={id}
        value={mode}
        onChange={(event) => {
          const next = (event.currentTarget as HTMLSelectElement).value as PermissionMode;
          // Switching to Full access from another mode asks first (the runtime permission modes' rule).
          if (next === 'full-access' && mode !== 'full-access') {
            (event.currentTarget as HTMLSelectElement).value = mode;
            setConfirming(mode);
          } else onChange(next);
        }}
      >
        {MODES.map((m) => (
          <option key={m.mode} value={m.mode}>
            {m.label}
          </option>
        ))}
      </select>
      {confirming !== null && (
        <div class="confirm" role="alertdialog" aria-labelledby={`${id}-confirm-title`} aria-describedby={`${id}-confirm-text`}>
          <p id={`${id}-confirm-title`} class="confirm-title">
            Use Full access?
          </p>
          <p id={`${id}-confirm-text`}>Codex will run file, terminal and network operations without asking. Plugin forms still ask you.</p>
          <div class="card-actions">
            <button
              type="button"
              class="danger"
              onClick={() => {
                onChange('full-access');
                setConfirming(null);
              }}
            >
              Use Full access
            </button>
            <button type="button" onClick={() => setConfirming(null)}>
              Keep {modeLabel(confirming)}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

/** Why a task cannot send with its saved model, or `null` when it can (`null` saved: Codex's default). */
export function modelProblem(saved: string | null, models: ReadonlyArray<ModelChoice> | null): string | null {
  if (saved === null || models === null) return null;
  return models.some((m) => m.model === saved) ? null : `The model "${saved}" saved on this task is no longer available. Choose another model to send.`;
}

/** The model select: Codex's default first as "Default", then the offered models in Codex's order; a vanished saved model shown as unavailable. */
export function ModelPicker({ id, value, models, onChange }: { readonly id: string; readonly value: string | null; readonly models: ReadonlyArray<ModelChoice>; readonly onChange: (model: string | null) => void }) {
  const vanished = value !== null && !models.some((m) => m.model === value);
  return (
    <div class="picker-field">
      <label for={id}>Model</label>
      <select id={id} value={value ?? ''} aria-invalid={vanished ? 'true' : undefined} onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value || null)}>
        {vanished && (
          <option value={value} disabled>
            {value} (unavailable)
          </option>
        )}
        <option value="">Default{models.find((m) => m.isDefault) === undefined ? '' : ` (${models.find((m) => m.isDefault)?.displayName ?? ''})`}</option>
        {models.map((m) => (
          <option key={m.model} value={m.model}>
            {m.displayName}
          </option>
        ))}
      </select>
    </div>
  );
}

/** How a task's model reads in its title: its display name, "Default model", or the vanished id. */
export function modelLabelOf(model: string | null, models: ReadonlyArray<ModelChoice> | null): string {
  if (model === null) return 'Default model';
  return models?.find((m) => m.model === model)?.displayName ?? model;
}
