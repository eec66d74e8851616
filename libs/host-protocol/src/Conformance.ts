/**
 * Whether a recorded conversation between a host and the executor keeps to the protocol's schema: every
 * message part both ways (request params, results, error `data`, `card/show` and its answer,
 * notifications) validates against its definition, and a request the executor refused as malformed
 * (`-32602` invalid params) is refused by the schema too, so the schema says what the executor enforces.
 * The validator is a port (any JSON Schema 2020-12 validator holding the document); what fails is named
 * by place and method, never by value.
 *
 * Every function here is pure: messages in, a verdict out.
 */
import * as E from 'fp-ts/lib/Either.js';
import { HostErrorCode } from './ErrorCodes.js';
import { errorDataSchema, schemaForMessage, type HostMessageKind, type HostMessagePart } from './ProtocolSchema.js';
import { isRecord } from '@wework/decode-issues';

/** Which way a recorded message went. */
export type RecordedDirection = 'toExecutor' | 'toHost';

/** One recorded JSON-RPC message. */
export interface RecordedMessage {
  readonly direction: RecordedDirection;
  readonly message: unknown;
}

/** Validates `value` against the definition at `ref` (`schemaForMessage(…).ref`). */
export type SchemaValidator = (ref: string, value: unknown) => boolean;

/** Why a recorded message part does not conform. */
export interface ConformanceIssue {
  /** Its place in the recording. */
  readonly index: number;
  readonly direction: RecordedDirection;
  readonly method: string;
  readonly part: HostMessagePart;
  /** `DoesNotValidate`: the part fails its definition; `RefusedButValid`: the executor refused the params as invalid, the schema accepts them. */
  readonly problem: 'DoesNotValidate' | 'RefusedButValid';
}

/** The verdict on a recording. */
export interface Conformance {
  /** Message parts validated. */
  readonly checked: number;
  /** Messages outside the protocol's schema: JSON-RPC's own (`$/cancelRequest`), unknown methods, error replies of the host. */
  readonly skipped: number;
  readonly issues: ReadonlyArray<ConformanceIssue>;
}

type Json = { readonly [key: string]: unknown };
const idKey = (id: unknown): string | null => (typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : null);
const opposite = (direction: RecordedDirection): RecordedDirection => (direction === 'toExecutor' ? 'toHost' : 'toExecutor');

/**
 * Checks a recording with `validate`.
 * @example
 * ```ts
 * const verdict = conformanceOf(transcript, (ref, value) => ajv.validate(ref, value) === true);
 * verdict.issues; // [] when every part fits
 * ```
 */
export function conformanceOf(recording: ReadonlyArray<RecordedMessage>, validate: SchemaValidator): Conformance {
  // The requests by direction and id, to read each response against the method it answers.
  const requests = new Map<string, { readonly method: string; readonly index: number }>();
  const responses = new Map<string, Json>();
  recording.forEach(({ direction, message }, index) => {
    if (!isRecord(message)) return;
    const id = idKey(message['id']);
    if (id === null) return;
    if (typeof message['method'] === 'string') requests.set(`${direction}:${id}`, { method: message['method'], index });
    else responses.set(`${opposite(direction)}:${id}`, message);
  });

  let checked = 0;
  let skipped = 0;
  const issues: ConformanceIssue[] = [];
  const check = (index: number, direction: RecordedDirection, kind: HostMessageKind, method: string, part: HostMessagePart, value: unknown, expected: 'valid' | 'invalid'): void => {
    // Every error reply's data has one definition, whatever the method (an unknown one included).
    const target = part === 'errorData' ? E.right(errorDataSchema()) : schemaForMessage(kind, method, part);
    if (E.isLeft(target)) {
      skipped += 1;
      return;
    }
    checked += 1;
    const valid = validate(target.right.ref, value ?? {});
    if (expected === 'valid' && !valid) issues.push({ index, direction, method, part, problem: 'DoesNotValidate' });
    if (expected === 'invalid' && valid) issues.push({ index, direction, method, part, problem: 'RefusedButValid' });
  };

  recording.forEach(({ direction, message }, index) => {
    if (!isRecord(message)) return void (skipped += 1);
    const method = message['method'];
    const id = idKey(message['id']);
    if (typeof method === 'string') {
      const kind: HostMessageKind = id === null ? 'notification' : direction === 'toExecutor' ? 'hostRequest' : 'executorRequest';
      if (kind === 'notification' && direction === 'toExecutor') return void (skipped += 1);
      const answer = id === null ? undefined : responses.get(`${direction}:${id}`);
      const refusedAsInvalid = kind === 'hostRequest' && isRecord(answer?.['error']) && answer['error']['code'] === HostErrorCode.InvalidParams;
      return check(index, direction, kind, method, 'params', message['params'], refusedAsInvalid ? 'invalid' : 'valid');
    }
    const request = id === null ? undefined : requests.get(`${opposite(direction)}:${id}`);
    if (request === undefined) return void (skipped += 1);
    const kind: HostMessageKind = direction === 'toHost' ? 'hostRequest' : 'executorRequest';
    if ('result' in message) return check(index, direction, kind, request.method, 'result', message['result'], 'valid');
    const error = message['error'];
    // The executor's error replies carry HostErrorData; a host's error reply to card/show is its own.
    if (kind === 'hostRequest' && isRecord(error)) return check(index, direction, kind, request.method, 'errorData', error['data'], 'valid');
    skipped += 1;
  });
  return { checked, skipped, issues };
}
