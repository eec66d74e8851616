/**
 * Why an elicitation request cannot be shown as a card: a `_tag`ged union, each member with a
 * `message` a log can show. The executor answers every one of them with `decline`
 * (see `unsupportedResult`), as the plugin forms spec says.
 *
 * Messages quote property keys and modes (schema structure), never free-form text such as
 * messages, titles or answers.
 *
 * Every function here is pure: values in, values out.
 */
import { quoteShort } from './internal/json.js';

/** The request does not have the shape of an elicitation (a path names the first problem). */
export interface InvalidRequest {
  readonly _tag: 'InvalidRequest';
  /** Where, e.g. `params.requestedSchema.properties.target.oneOf[1]`. */
  readonly path: string;
  /** What was expected there, e.g. `string` or `object`. */
  readonly expected: string;
  /** What was there instead, described without quoting free-form text. */
  readonly actual: string;
  readonly message: string;
}

/** A mode the mapper does not render (`url`, `openai/userVerification`, anything unknown). */
export interface UnsupportedMode {
  readonly _tag: 'UnsupportedMode';
  readonly mode: string;
  readonly message: string;
}

/** `requestedSchema.properties` is missing: the spec declines such a form. */
export interface MissingProperties {
  readonly _tag: 'MissingProperties';
  readonly message: string;
}

/** An `enum` (or `items.enum`) with a value that is not a string. */
export interface NonStringEnum {
  readonly _tag: 'NonStringEnum';
  readonly key: string;
  readonly message: string;
}

/** A `oneOf[].const` (or `anyOf[].const`) that is not a string. */
export interface NonStringConst {
  readonly _tag: 'NonStringConst';
  readonly key: string;
  /** Position of the option in its `oneOf`/`anyOf` list. */
  readonly index: number;
  readonly message: string;
}

/** A property whose type has no card question (`object`, `null`, an array without enum items, ...). */
export interface UnsupportedPropertyType {
  readonly _tag: 'UnsupportedPropertyType';
  readonly key: string;
  /** The schema's `type` as written (`object`, `array`, ...), or a description when it is not a string. */
  readonly type: string;
  readonly message: string;
}

/** An option of a `oneOf`/`anyOf` list that is not a `{ const, title }` object. */
export interface UnsupportedOption {
  readonly _tag: 'UnsupportedOption';
  readonly key: string;
  readonly index: number;
  readonly message: string;
}

/** A choice with no options at all: nothing could be selected. */
export interface EmptyOptions {
  readonly _tag: 'EmptyOptions';
  readonly key: string;
  readonly message: string;
}

/** A Codex approval elicitation (`_meta.codex_approval_kind`) of a kind other than `mcp_tool_call`. */
export interface UnsupportedApprovalKind {
  readonly _tag: 'UnsupportedApprovalKind';
  readonly kind: string;
  readonly message: string;
}

/** Why the link of a URL-mode request is not offered to the user. */
export type UrlProblem =
  /** The WHATWG URL parser does not read it (or the runtime has no parser). */
  | 'unparsable'
  /** A scheme other than `https` and `http` (`javascript:`, `file:`, `data:`, ...). */
  | 'scheme'
  /** `http` to a host that is not loopback (`localhost`, 127.0.0.0/8, `[::1]`). */
  | 'httpNotLoopback'
  /** A user name or password in the address (`https://trusted.example@other.example/`). */
  | 'credentials'
  /** Longer than {@link MAX_URL_LENGTH} characters. */
  | 'tooLong';

/** The longest link a URL-mode card offers, in UTF-16 code units. */
export const MAX_URL_LENGTH = 8192;

/**
 * The link of a URL-mode request is not offered: only `https`, and `http` on loopback, are. The
 * message names the problem with at most the scheme and the host, never the rest of the address.
 */
export interface UnsupportedUrl {
  readonly _tag: 'UnsupportedUrl';
  readonly problem: UrlProblem;
  /** The parsed scheme without its colon (`javascript`, `file`, ...), `null` when the address does not parse. */
  readonly scheme: string | null;
  /** The parsed host (may be empty, e.g. for `file:`), `null` when the address does not parse. */
  readonly host: string | null;
  readonly message: string;
}

/** Why an elicitation request cannot be shown as a card. */
export type Unsupported =
  | InvalidRequest
  | UnsupportedMode
  | MissingProperties
  | NonStringEnum
  | NonStringConst
  | UnsupportedPropertyType
  | UnsupportedOption
  | EmptyOptions
  | UnsupportedApprovalKind
  | UnsupportedUrl;

const prefix = 'Unsupported elicitation';
const keyText = (key: string): string => JSON.stringify(key.length <= 80 ? key : `${key.slice(0, 80)}…`);

/** Builds an {@link InvalidRequest}. */
export const invalidRequest = (path: string, expected: string, actual: string): InvalidRequest => ({
  _tag: 'InvalidRequest',
  path,
  expected,
  actual,
  message: `Invalid elicitation request: ${path}: expected ${expected}, got ${actual}`,
});

/** Builds an {@link UnsupportedMode}. */
export const unsupportedMode = (mode: string): UnsupportedMode => ({
  _tag: 'UnsupportedMode',
  mode,
  message: `${prefix}: mode ${quoteShort(mode)} is not supported (use "form" or "url")`,
});

const urlProblemText = (problem: UrlProblem, scheme: string | null, host: string | null): string => {
  const where = host === null || host === '' ? '' : ` to host ${quoteShort(host)}`;
  switch (problem) {
    case 'unparsable':
      return 'the url does not parse';
    case 'scheme':
      return `scheme ${quoteShort(scheme ?? '')} is not offered (only https, or http on loopback)`;
    case 'httpNotLoopback':
      return `http${where} is not offered (http only on loopback)`;
    case 'credentials':
      return `the ${scheme ?? ''} url${where} carries a user name or password`;
    case 'tooLong':
      return `the url is longer than ${MAX_URL_LENGTH} characters`;
  }
};

/** Builds an {@link UnsupportedUrl}; the message names at most the scheme and the host. */
export const unsupportedUrl = (problem: UrlProblem, scheme: string | null = null, host: string | null = null): UnsupportedUrl => ({
  _tag: 'UnsupportedUrl',
  problem,
  scheme,
  host,
  message: `${prefix}: url mode: ${urlProblemText(problem, scheme, host)}`,
});

/** Builds a {@link MissingProperties}. */
export const missingProperties = (): MissingProperties => ({
  _tag: 'MissingProperties',
  message: `${prefix}: requestedSchema.properties is missing`,
});

/** Builds a {@link NonStringEnum}. */
export const nonStringEnum = (key: string): NonStringEnum => ({
  _tag: 'NonStringEnum',
  key,
  message: `${prefix}: property ${keyText(key)} has an enum value that is not a string (only string enums are supported)`,
});

/** Builds a {@link NonStringConst}. */
export const nonStringConst = (key: string, index: number): NonStringConst => ({
  _tag: 'NonStringConst',
  key,
  index,
  message: `${prefix}: option ${index} of property ${keyText(key)} has a const that is not a string (only string consts are supported)`,
});

/** Builds an {@link UnsupportedPropertyType}. */
export const unsupportedPropertyType = (key: string, type: string): UnsupportedPropertyType => ({
  _tag: 'UnsupportedPropertyType',
  key,
  type,
  message: `${prefix}: property ${keyText(key)} has type ${quoteShort(type)}, which no card question supports`,
});

/** Builds an {@link UnsupportedOption}. */
export const unsupportedOption = (key: string, index: number): UnsupportedOption => ({
  _tag: 'UnsupportedOption',
  key,
  index,
  message: `${prefix}: option ${index} of property ${keyText(key)} is not a { const, title } object`,
});

/** Builds an {@link EmptyOptions}. */
export const emptyOptions = (key: string): EmptyOptions => ({
  _tag: 'EmptyOptions',
  key,
  message: `${prefix}: property ${keyText(key)} offers no options`,
});

/** Builds an {@link UnsupportedApprovalKind}. */
export const unsupportedApprovalKind = (kind: string): UnsupportedApprovalKind => ({
  _tag: 'UnsupportedApprovalKind',
  kind,
  message: `${prefix}: Codex approval kind ${quoteShort(kind)} is not supported (only "mcp_tool_call")`,
});
