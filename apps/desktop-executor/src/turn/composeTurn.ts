/**
 * Composes a `turn/start` from what the user sent: the composer's markdown (mentions become structured
 * items; text that only looks like a mention is cut into separate text items where Codex would read
 * one out of it, see `toCodexTurnInput`), the attachments (prepared for the model category), the task's saved model (checked against the
 * catalog) and the task's permission mode.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { UserInputStrict } from '@wework/codex-protocol';
import { permissionParamsForTask, type UnknownPermissionModeWarning } from '@wework/approval-policy';
import { describeImageError, type ImageError, type ModelCategory } from '@wework/image-preprocess';
import type { TurnImages } from '@wework/image-preprocess/node';
import { toCodexTurnInput, type InvalidMention } from '@wework/mention-serializer';
import { checkSendable, type ModelCatalog, type SendBlocked } from '@wework/model-catalog';
import type { TurnCallParams } from '../runtime/LocalRuntime.js';

/** What the user sent, as the host hands it over. */
export interface TurnRequest {
  /** The composer content as Codex-compatible markdown (mentions included). */
  readonly markdown: string;
  /** Paths of attached images, as the user attached them (never rewritten). */
  readonly attachments: ReadonlyArray<string>;
  readonly modelCategory: ModelCategory;
  /** The persisted task (its `modelSelection` carries the saved model and permission mode). */
  readonly task: unknown;
  /** The task's saved model, if any. */
  readonly savedModel: string | null | undefined;
}

/** Why the turn cannot be sent. */
export type ComposeError = SendBlocked | { readonly _tag: 'InvalidComposerContent'; readonly reason: InvalidMention };

/** A composed turn, ready for `turn/start`. */
export interface ComposedTurn {
  readonly input: ReadonlyArray<UserInputStrict>;
  readonly params: TurnCallParams & { readonly model: string };
  /** Attachments that could not be prepared (left out of the turn), and a corrupt persisted permission mode. */
  readonly warnings: ReadonlyArray<{ readonly attachment: string; readonly error: ImageError; readonly message: string } | UnknownPermissionModeWarning>;
}

/**
 * Composes the turn; nothing is sent when the saved model is gone or the content is invalid. `images` is
 * the turn's image store, `null` for a message without attachments (it has none to prepare).
 */
export async function composeTurn(request: TurnRequest, catalog: ModelCatalog, images: TurnImages | null): Promise<E.Either<ComposeError, ComposedTurn>> {
  const sendable = checkSendable(catalog, request.savedModel);
  if (E.isLeft(sendable)) return sendable;
  const text = toCodexTurnInput(request.markdown);
  if (E.isLeft(text)) return E.left({ _tag: 'InvalidComposerContent', reason: text.left });
  const warnings: Array<ComposedTurn['warnings'][number]> = [];
  const imageItems: UserInputStrict[] = [];
  for (const attachment of request.attachments) {
    // Without a store (the caller begins one for every message with attachments) there is nowhere to prepare it.
    const prepared = images === null ? E.left<ImageError>({ _tag: 'TurnEnded', turnId: '' }) : await images.prepare(attachment, request.modelCategory);
    if (E.isLeft(prepared)) warnings.push({ attachment, error: prepared.left, message: describeImageError(prepared.left) });
    else imageItems.push({ type: 'localImage', path: prepared.right.path });
  }
  const permissions = permissionParamsForTask(request.task, 'turn/start');
  if (permissions.warning !== undefined) warnings.push(permissions.warning);
  return E.right({ input: [...text.right, ...imageItems], params: { ...permissions.params, model: sendable.right.model.id }, warnings });
}
