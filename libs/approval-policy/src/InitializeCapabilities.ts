/**
 * The `initialize` capabilities Wework sends to `codex app-server`: the experimental API (needed for
 * `permissions` and the granular approval policy) and, only when explicitly asked, the `openai/form`
 * MCP extension.
 *
 * Measured on Codex 0.171.0: with `extensions: { "openai/form": {} }` (or the legacy
 * `mcpServerOpenaiFormElicitation: true`) Codex's MCP client declares
 * `extensions: { "openai/form": {} }` to every plugin; without it, plugins only see
 * `elicitation: { form: {}, url: {} }`. Standard `mode: "form"` needs neither.
 *
 * Every function here is pure.
 */
import type { InitializeCapabilities } from '@wework/codex-protocol';
import { isRecord } from '@wework/decode-issues';
import { withoutKey } from '@wework/codex-protocol';

/** The MCP extension id of OpenAI's form elicitation. */
export const OPENAI_FORM_EXTENSION = 'openai/form';

/** Options of {@link weworkInitializeCapabilities}. */
export interface CapabilityOptions {
  /** Advertise the `openai/form` extension; only when Wework and the downstream client support it. Default `false`. */
  readonly openaiForm?: boolean;
  /** Capabilities to start from (other fields are kept); any `openai/form` in them is removed unless `openaiForm`. */
  readonly base?: InitializeCapabilities;
}

/**
 * Wework's `initialize` capabilities: `experimentalApi: true`, `requestAttestation: false`, and no
 * `openai/form` unless `openaiForm: true`.
 *
 * @example
 * ```ts
 * weworkInitializeCapabilities(); // { experimentalApi: true, requestAttestation: false }
 * weworkInitializeCapabilities({ openaiForm: true });
 * // { experimentalApi: true, requestAttestation: false, extensions: { 'openai/form': {} } }
 * ```
 */
export function weworkInitializeCapabilities(options: CapabilityOptions = {}): InitializeCapabilities {
  const base: InitializeCapabilities = options.base ?? { experimentalApi: true, requestAttestation: false };
  const { mcpServerOpenaiFormElicitation: _legacy, extensions, ...rest } = base;
  const otherExtensions = isRecord(extensions) ? withoutKey(extensions, OPENAI_FORM_EXTENSION) : {};
  const withExtensions = options.openaiForm === true ? { ...otherExtensions, [OPENAI_FORM_EXTENSION]: {} } : otherExtensions;
  return {
    ...rest,
    experimentalApi: true,
    ...(Object.keys(withExtensions).length > 0 ? { extensions: withExtensions } : {}),
  };
}

/**
 * Whether capabilities advertise `openai/form`, by the legacy flag or the extension entry.
 *
 * @example
 * ```ts
 * advertisesOpenaiForm({ experimentalApi: true, requestAttestation: false }); // false
 * advertisesOpenaiForm({ experimentalApi: true, requestAttestation: false, mcpServerOpenaiFormElicitation: true }); // true
 * ```
 */
export function advertisesOpenaiForm(capabilities: InitializeCapabilities | null | undefined): boolean {
  if (capabilities === null || capabilities === undefined) return false;
  if (capabilities.mcpServerOpenaiFormElicitation === true) return true;
  const { extensions } = capabilities;
  return isRecord(extensions) && Object.prototype.hasOwnProperty.call(extensions, OPENAI_FORM_EXTENSION) && extensions[OPENAI_FORM_EXTENSION] !== null;
}
