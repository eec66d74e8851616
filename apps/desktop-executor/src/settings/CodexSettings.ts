/**
 * Settings → Context and the interaction style, kept where Codex keeps them: config.toml in the Wework
 * Codex home, read with `config/read` and written with `config/batchWrite` (`reloadUserConfig: true`).
 * Nothing is cached here: config.toml is the only source of truth. Codex 0.171.0 applies new developer
 * instructions to threads started after the write; a loaded thread keeps the ones it started with.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ConfigBatchWrite, ConfigRead } from '@wework/codex-protocol';
import { describeClientErrorCategory, type AppServerClient } from '@wework/app-server-client';
import { composeDeveloperInstructions, developerInstructionsEdit, personalityEdit, userCopyOf, type InteractionStyle } from '@wework/codex-home';

/**
 * What Wework adds to every user's developer instructions: links and pages the user asks to open go to
 * the embedded browser of the Wework window rather than the system browser.
 */
export const EMBEDDED_BROWSER_ROUTING =
  'When the user asks to open, preview or show a web page or a local HTML file, open it in the Wework embedded browser panel instead of launching an external browser.';

/** Why a setting could not be read or written. */
export interface SettingsError {
  readonly _tag: 'SettingsRequestFailed';
  readonly method: string;
  readonly reason: string;
}

/** The Context and style settings of the Wework Codex home. */
export interface CodexSettings {
  /** The user's custom instructions (Wework's routing block taken out). */
  readInstructions(): Promise<E.Either<SettingsError, string>>;
  /** Saves the user's custom instructions, merged with Wework's routing block. */
  writeInstructions(text: string): Promise<E.Either<SettingsError, void>>;
  /** The interaction style in config.toml, when it is one Wework offers. */
  readStyle(): Promise<E.Either<SettingsError, InteractionStyle | null>>;
  writeStyle(style: InteractionStyle): Promise<E.Either<SettingsError, void>>;
  /**
   * Saves the given settings together, in one `config/batchWrite` (one write of config.toml): both are
   * saved or neither is, so a full disk never leaves the instructions saved and the style not.
   */
  writeSettings(settings: { readonly instructions?: string; readonly style?: InteractionStyle }): Promise<E.Either<SettingsError, void>>;
}

/** Settings over one app-server connection. */
export function codexSettings(client: AppServerClient, routing: string = EMBEDDED_BROWSER_ROUTING): CodexSettings {
  const read = async (): Promise<E.Either<SettingsError, Readonly<Record<string, unknown>>>> => {
    const result = await client.request(ConfigRead, {});
    return E.isLeft(result)
      ? E.left({ _tag: 'SettingsRequestFailed', method: ConfigRead.method, reason: describeClientErrorCategory(result.left) })
      : E.right(result.right.config as Readonly<Record<string, unknown>>);
  };
  const write = async (edits: Parameters<typeof client.request<typeof ConfigBatchWrite>>[1]['edits']): Promise<E.Either<SettingsError, void>> => {
    const result = await client.request(ConfigBatchWrite, { edits, reloadUserConfig: true });
    return E.isLeft(result) ? E.left({ _tag: 'SettingsRequestFailed', method: ConfigBatchWrite.method, reason: describeClientErrorCategory(result.left) }) : E.right(undefined);
  };
  return {
    readInstructions: async () => {
      const config = await read();
      if (E.isLeft(config)) return config;
      const value = config.right['developer_instructions'];
      return E.right(userCopyOf(typeof value === 'string' ? value : null, routing));
    },
    writeInstructions: (text) => write([developerInstructionsEdit(composeDeveloperInstructions(text, routing))]),
    readStyle: async () => {
      const config = await read();
      if (E.isLeft(config)) return config;
      const value = config.right['personality'];
      return E.right(value === 'friendly' || value === 'pragmatic' ? value : null);
    },
    writeStyle: (style) => write([personalityEdit(style)]),
    writeSettings: async ({ instructions, style }) => {
      const edits = [
        ...(instructions === undefined ? [] : [developerInstructionsEdit(composeDeveloperInstructions(instructions, routing))]),
        ...(style === undefined ? [] : [personalityEdit(style)]),
      ];
      return edits.length === 0 ? E.right(undefined) : write(edits);
    },
  };
}
