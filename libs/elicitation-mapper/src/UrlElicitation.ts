/**
 * URL-mode elicitation (MCP 2025-11-25, SEP-1036): a plugin asks the user to open a link for a step
 * whose data must not pass through the client (a sign-in, a payment). The request
 * (`{ mode: "url", message, url, elicitationId }`, from Codex's `mcpServer/elicitation/request` or a
 * plain MCP `elicitation/create`) becomes a {@link UrlCard} with one question, Open / Decline / Cancel,
 * when its link passes {@link checkElicitationUrl}: `https`, or `http` on a loopback host, parsed as a
 * browser parses it, without credentials. Anything else is declined with an {@link UnsupportedUrl} whose
 * message names at most the scheme and the host.
 *
 * Nothing here opens the link; the host opens {@link UrlTarget.url} on the user's click only. Open
 * answers `accept` without content, Decline `decline`, Cancel `cancel`. The plugin's
 * `notifications/elicitation/complete` names the request's `elicitationId` ({@link completesUrlCard}).
 *
 * Every function here is pure: JSON in, a card, a result or a `_tag`ged error out. The only global read
 * is the WHATWG `URL` parser of the runtime (Node, browsers), so that the address checked is the address
 * a browser opens.
 */
import * as E from 'fp-ts/lib/Either.js';
import type { ElicitationSource, OpenUrlQuestion, UrlCard, UrlChoice, UrlTarget } from './Card.js';
import { cancelResult, declineResult, openedResult, type ElicitResult } from './ElicitResult.js';
import { answerStrings, optionIndex } from './internal/answerReading.js';
import { isRecord } from '@wework/decode-issues';
import { describeValue, own, type JsonRecord } from './internal/json.js';
import { invalidRequest, MAX_URL_LENGTH, unsupportedUrl, type Unsupported, type UnsupportedUrl } from './Unsupported.js';

/** The id of the single question of a {@link UrlCard}. */
export const URL_QUESTION_ID = 'openUrl';

/** Label and description of each choice, in display order. */
export const urlChoiceLabels: { readonly [C in UrlChoice]: { readonly label: string; readonly description: string } } = {
  accept: { label: 'Open', description: 'Open the link in a new browser tab.' },
  decline: { label: 'Decline', description: 'Do not open the link; the plugin is told you declined.' },
  cancel: { label: 'Cancel', description: 'Dismiss the request without deciding.' },
};

const CHOICES: ReadonlyArray<UrlChoice> = ['accept', 'decline', 'cancel'];

/** The parts of a WHATWG URL this module reads. */
interface ParsedUrl {
  readonly href: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  readonly host: string;
}

/** The runtime's WHATWG URL parser (`undefined` where there is none: every address is then declined). */
const whatwgUrl = (globalThis as { readonly URL?: new (input: string) => ParsedUrl }).URL;

const parse = (text: string): ParsedUrl | null => {
  if (whatwgUrl === undefined) return null;
  try {
    return new whatwgUrl(text);
  } catch {
    return null;
  }
};

/** `localhost`, an IPv4 address in 127.0.0.0/8 (as the parser normalizes it), or `[::1]`. */
export const isLoopbackHostname = (hostname: string): boolean =>
  typeof hostname === 'string' &&
  (hostname === 'localhost' || hostname === '[::1]' || /^127\.(?:\d{1,3})\.(?:\d{1,3})\.(?:\d{1,3})$/.test(hostname));

/**
 * Checks the link of a URL-mode request: it must parse (WHATWG URL, as a browser reads it), be at most
 * {@link MAX_URL_LENGTH} long, use `https` (any host) or `http` on a loopback host, and carry no user
 * name or password. The result is the parsed address with its scheme and host, or why it is declined.
 * @example
 * ```ts
 * checkElicitationUrl('https://auth.example.com/connect?state=1');
 * // Right({ url: 'https://auth.example.com/connect?state=1', scheme: 'https', host: 'auth.example.com' })
 * checkElicitationUrl('javascript:alert(1)');
 * // Left({ _tag: 'UnsupportedUrl', problem: 'scheme', scheme: 'javascript', host: '', message: '... scheme "javascript" is not offered ...' })
 * ```
 */
export function checkElicitationUrl(url: unknown): E.Either<UnsupportedUrl, Omit<UrlTarget, 'elicitationId'>> {
  if (typeof url !== 'string') return E.left(unsupportedUrl('unparsable'));
  if (url.length > MAX_URL_LENGTH) return E.left(unsupportedUrl('tooLong'));
  const parsed = parse(url);
  if (parsed === null || parsed.href.length > MAX_URL_LENGTH) return E.left(unsupportedUrl(parsed === null ? 'unparsable' : 'tooLong'));
  const scheme = parsed.protocol.endsWith(':') ? parsed.protocol.slice(0, -1) : parsed.protocol;
  if (scheme !== 'https' && scheme !== 'http') return E.left(unsupportedUrl('scheme', scheme, parsed.host));
  if (parsed.hostname === '') return E.left(unsupportedUrl('unparsable', scheme, parsed.host));
  if (scheme === 'http' && !isLoopbackHostname(parsed.hostname)) return E.left(unsupportedUrl('httpNotLoopback', scheme, parsed.host));
  if (parsed.username !== '' || parsed.password !== '') return E.left(unsupportedUrl('credentials', scheme, parsed.host));
  return E.right({ url: parsed.href, scheme, host: parsed.host });
}

/** The question of a URL card: the host is named, the options are Open / Decline / Cancel. */
const openUrlQuestion = (target: Omit<UrlTarget, 'elicitationId'>): OpenUrlQuestion => ({
  id: URL_QUESTION_ID,
  answerType: 'openUrl',
  header: 'Open link',
  question: `Open a page on ${target.host} (${target.scheme})?`,
  isOther: false,
  isSecret: false,
  required: true,
  options: CHOICES.map((choice) => urlChoiceLabels[choice]),
  choices: CHOICES,
});

/**
 * The card of a URL-mode request whose envelope (`source`) is read: `message`, `url` and `elicitationId`
 * checked, the link through {@link checkElicitationUrl}.
 * @example
 * ```ts
 * urlCardOf({ serverName: 'forms', threadId: 't', turnId: null }, { mode: 'url', message: 'Sign in', url: 'https://auth.example.com/', elicitationId: 'e1' });
 * // Right({ _tag: 'UrlCard', message: 'Sign in', target: { url: 'https://auth.example.com/', scheme: 'https', host: 'auth.example.com', elicitationId: 'e1' }, ... })
 * ```
 */
export function urlCardOf(source: ElicitationSource, params: JsonRecord): E.Either<Unsupported, UrlCard> {
  if (!isRecord(params)) return E.left(invalidRequest('params', 'object', describeValue(params)));
  const message = own(params, 'message');
  if (typeof message !== 'string') return E.left(invalidRequest('params.message', 'string', describeValue(message)));
  const elicitationId = own(params, 'elicitationId');
  if (typeof elicitationId !== 'string') return E.left(invalidRequest('params.elicitationId', 'string', describeValue(elicitationId)));
  const checked = checkElicitationUrl(own(params, 'url'));
  if (E.isLeft(checked)) return checked;
  return E.right({
    _tag: 'UrlCard',
    source,
    message,
    target: { ...checked.right, elicitationId },
    questions: [openUrlQuestion(checked.right)],
    submitOnSelect: true,
  });
}

/** The choice the answer's label names, or `null`. */
export function urlChoiceOf(card: UrlCard, response: unknown): UrlChoice | null {
  const question: unknown = isRecord(card) && Array.isArray(card.questions) ? card.questions[0] : undefined;
  if (!isRecord(question) || typeof question['id'] !== 'string') return null;
  const answers = isRecord(response) ? own(response, 'answers') : undefined;
  const list = answerStrings(answers, question['id']);
  const index = optionIndex(question['options'], list?.[0]);
  const choices: unknown = question['choices'];
  const choice: unknown = Array.isArray(choices) && index >= 0 ? choices[index] : undefined;
  return choice === 'accept' || choice === 'decline' || choice === 'cancel' ? choice : null;
}

/**
 * The result of a URL card answered with `response` (the label of one option): Open → accept without
 * content, Decline → decline, Cancel → cancel; cancel when no option is named. Never throws.
 * @example
 * ```ts
 * urlAnswerToResult(card, { answers: { openUrl: { answers: ['Open'] } } }); // { action: 'accept', content: null, _meta: null }
 * ```
 */
export function urlAnswerToResult(card: UrlCard, response: unknown): ElicitResult {
  switch (urlChoiceOf(card, response)) {
    case 'accept':
      return openedResult();
    case 'decline':
      return declineResult();
    default:
      return cancelResult();
  }
}

/**
 * Whether a `notifications/elicitation/complete` (its params, any JSON) ends this card: the card is a
 * {@link UrlCard} and the notification names its `elicitationId`. A host that still shows the card
 * dismisses it. Never throws.
 * @example
 * ```ts
 * completesUrlCard(card, { elicitationId: 'e1' }); // true for the card of request e1
 * ```
 */
export function completesUrlCard(card: unknown, params: unknown): boolean {
  if (!isRecord(card) || card['_tag'] !== 'UrlCard' || !isRecord(card['target']) || !isRecord(params)) return false;
  const id = own(params, 'elicitationId');
  return typeof id === 'string' && id === own(card['target'], 'elicitationId');
}
