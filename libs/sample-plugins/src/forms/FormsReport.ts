/**
 * The text a forms-plugin tool returns: what came back from the elicitation, exactly, and what
 * the plugin did about it. Two lines, readable by a person and parseable by a test:
 *
 * ```text
 * elicitation: accept {"target":"production"}
 * outcome: deployed web to production
 * ```
 *
 * `elicitation:` is followed by `accept` (plus the content JSON when content came back),
 * `decline`, `cancel`, `unsupported` (the client cannot show forms, none was sent) or
 * `error` plus the error message as a JSON string.
 *
 * Every function here is pure: plain data in, text or plain data out.
 */

/** What came back from one elicitation. */
export type ElicitationOutcome =
  | { readonly action: 'accept'; readonly content?: Readonly<Record<string, unknown>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' }
  | { readonly action: 'unsupported' }
  | { readonly action: 'error'; readonly message: string };

/** A forms-plugin tool result: the elicitation outcome and what the plugin did. */
export interface FormsReport {
  readonly elicitation: ElicitationOutcome;
  readonly outcome: string;
}

/** Why a text is not a forms report. */
export interface FormsReportParseError {
  readonly _tag: 'FormsReportParseError';
  readonly message: string;
}

function elicitationLine(e: ElicitationOutcome): string {
  switch (e.action) {
    case 'accept':
      return e.content === undefined ? 'accept' : `accept ${JSON.stringify(e.content)}`;
    case 'error':
      return `error ${JSON.stringify(e.message)}`;
    default:
      return e.action;
  }
}

/**
 * Renders a report.
 *
 * @example
 * ```ts
 * formatFormsReport({ elicitation: { action: 'decline' }, outcome: 'nothing was deployed' });
 * // 'elicitation: decline\noutcome: nothing was deployed'
 * ```
 */
export function formatFormsReport(report: FormsReport): string {
  return `elicitation: ${elicitationLine(report.elicitation)}\noutcome: ${report.outcome}`;
}

function parseJson(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function parseElicitation(line: string): ElicitationOutcome | undefined {
  const space = line.indexOf(' ');
  const action = space === -1 ? line : line.slice(0, space);
  const rest = space === -1 ? undefined : line.slice(space + 1);
  switch (action) {
    case 'decline':
    case 'cancel':
    case 'unsupported':
      return rest === undefined ? { action } : undefined;
    case 'accept': {
      if (rest === undefined) return { action };
      const parsed = parseJson(rest);
      const value = parsed.ok ? parsed.value : undefined;
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? { action, content: value as Record<string, unknown> } : undefined;
    }
    case 'error': {
      const parsed = rest === undefined ? undefined : parseJson(rest);
      return parsed?.ok === true && typeof parsed.value === 'string' ? { action, message: parsed.value } : undefined;
    }
    default:
      return undefined;
  }
}

/** Parses a report back from a tool result text (the inverse of {@link formatFormsReport}). */
export function parseFormsReport(text: string): { readonly ok: true; readonly report: FormsReport } | { readonly ok: false; readonly error: FormsReportParseError } {
  const fail = (message: string) => ({ ok: false as const, error: { _tag: 'FormsReportParseError' as const, message } });
  const prefix = 'elicitation: ';
  const separator = '\noutcome: ';
  if (!text.startsWith(prefix)) return fail('expected the text to start with "elicitation: "');
  const at = text.indexOf(separator);
  if (at === -1) return fail('expected an "outcome: " line');
  const elicitation = parseElicitation(text.slice(prefix.length, at));
  if (elicitation === undefined) return fail(`unrecognized elicitation line "${text.slice(0, at)}"`);
  return { ok: true, report: { elicitation, outcome: text.slice(at + separator.length) } };
}
