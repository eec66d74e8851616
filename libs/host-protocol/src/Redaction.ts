/**
 * Host messages with their credentials left out: what a transcript, a log or a report of a host request
 * may keep. Which params are credentials is declared once, on the method's descriptor (`secrets`).
 *
 * Every function here is pure: values in, values out; the input is never changed.
 */
import { HostRequests } from './Requests.js';
import { isRecord } from '@wework/decode-issues';

/** What a credential is replaced with. */
export const REDACTED = '[redacted]';

/** `value` with what `path` reaches replaced by {@link REDACTED} (`*` reaches every key of a record); a path that reaches nothing changes nothing. */
function redactPath(value: unknown, path: ReadonlyArray<string>): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return value === undefined ? value : REDACTED;
  if (!isRecord(value)) return value;
  const keys = key === '*' ? Object.keys(value) : Object.prototype.hasOwnProperty.call(value, key) ? [key] : [];
  if (keys.length === 0) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const name of keys) copy[name] = redactPath(value[name], rest);
  return copy;
}

/**
 * The params of a host request with its declared credentials replaced by {@link REDACTED}; the params of
 * a method that is not a host request, or declares none, as they are.
 *
 * @example
 * ```ts
 * redactHostParams('runtime/setWegentToken', { token: 'eyJhbGciOi…', expiresIn: 3600 });
 * // { token: '[redacted]', expiresIn: 3600 }
 * ```
 */
export function redactHostParams(method: string, params: unknown): unknown {
  const descriptor = Object.prototype.hasOwnProperty.call(HostRequests, method) ? HostRequests[method as keyof typeof HostRequests] : undefined;
  if (descriptor === undefined) return params;
  return descriptor.secrets.reduce<unknown>((redacted, path) => redactPath(redacted, path), params);
}

/**
 * A JSON-RPC message with the params of a host request redacted ({@link redactHostParams}); any other
 * message (a response, a notification the executor sends) as it is.
 */
export function redactHostMessage<T>(message: T): T {
  if (!isRecord(message) || typeof message['method'] !== 'string' || !('params' in message)) return message;
  const params = redactHostParams(message['method'], message['params']);
  return params === message['params'] ? message : ({ ...message, params } as T);
}
