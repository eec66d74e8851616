/**
 * The one place where every message from a host is checked before vscode-jsonrpc's dispatcher sees
 * it, for both transports. A transport hands over raw frames (a stdio line, a WebSocket text frame) and
 * a sink for serialised messages; this module decodes each frame with the host limits
 * (`decodeInboundBytes`), passes it through the connection's gate (`admitInbound`: requests in flight
 * per connection and over all connections, duplicate ids, responses to unknown ids, cancels of nothing)
 * and answers what it refuses at once: `-32700` / `-32600` for what is not a JSON-RPC message (with id
 * `null` when its id is that of a request in flight, which keeps the only answer to that id),
 * `-32011` Overloaded (`data: { tag: 'Overloaded', retryable: true }`) beyond the bound, `-32600`
 * (`data: { tag: 'DuplicateRequestId' }`) for an id already in flight. Short and long-running requests
 * (`HOST_LIMITS.longRunningMethods`) are bounded apart, each class per connection and over all
 * connections (two shared budgets). Refused notifications and
 * responses are dropped. Logs name the kind of refusal, never a value of the message; after the first
 * hundred refusals of a connection only every thousandth is logged, with the running count.
 *
 * Output is bounded too: while more than `pauseReadingAboveBytes` of output wait for the host, reading
 * from it pauses; above `disconnectAboveBytes` the host is disconnected.
 *
 * A host that ends its input (a half-close: `printf '<request>\n' | wework-executor --stdio`, or a
 * WebSocket Close frame) still gets the answers of the requests it sent: the connection closes once none
 * is in flight and its answers are handed to the operating system, or after `drainAfterInputEndMs` at the
 * latest.
 */
import { AbstractMessageReader, AbstractMessageWriter, createMessageConnection, type DataCallback, type Disposable, type Message, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  admitInbound,
  longRunningRequestsInFlight,
  refusalReplyId,
  shortRequestsInFlight,
  decodeInboundBytes,
  describeInboundRefusal,
  inboundErrorReply,
  initialGateState,
  recordOutbound,
  type GateState,
  type InboundMessage,
  type InboundRefusal,
  type JsonRpcMessage,
} from '@wework/jsonrpc';
import type { Log } from '@wework/ports';
import { HostErrorCode } from '@wework/host-protocol';
import { hostRequestBudget, type HostRequestBudget } from './HostLimits.js';
import { HOST_LIMITS } from '@wework/host-protocol';

/** One frame from a host, as its transport received it. */
export type HostFrame =
  | { readonly _tag: 'Bytes'; readonly bytes: Uint8Array }
  /** Refused by the transport itself (a line over the size limit, a binary frame). */
  | { readonly _tag: 'Refused'; readonly refusal: InboundRefusal };

/** What a transport offers the guard: frames in, serialised messages out. */
export interface HostChannel {
  /** Starts delivering frames, in order. */
  listen(onFrame: (frame: HostFrame) => void): void;
  onClose(listener: () => void): void;
  /**
   * The host ended its input but can still read (a half-close). A channel that offers it does not close
   * by itself at the end of input: the guard closes it (`destroy`) once the requests in flight it owes
   * answers to are answered, or at the drain bound. `owed` says which: `all` (stdio's end of input), or
   * `short` (a WebSocket Close frame: a host that closes means to reconnect or leave, and a long-running
   * request — a turn that may wait on a card — is not worth holding its close for; its cards wait for the
   * host to come back, as after a drop).
   */
  onInputEnd?(listener: (owed: 'all' | 'short') => void): void;
  onError(listener: (error: Error) => void): void;
  /** Stops and restarts delivering frames (backpressure). */
  pause(): void;
  resume(): void;
  /** Sends one serialised message; resolves once handed to the operating system. */
  send(text: string): Promise<void>;
  /** Bytes sent but not yet handed to the operating system. */
  unsentBytes(): number;
  /** Ends the output (the host sees the end). */
  end(): void;
  /** Disconnects the host at once. */
  destroy(): void;
}

/** Options of {@link guardedHostConnection}. */
export interface GuardOptions {
  readonly log: Log;
  /** The count of short host requests in flight shared by every connection; default the executor's own. */
  readonly budget?: HostRequestBudget;
  /** The count of long-running host requests in flight shared by every connection; default the executor's own. */
  readonly longRunningBudget?: HostRequestBudget;
  readonly maxRequestsPerConnection?: number;
  readonly maxLongRunningPerConnection?: number;
  /** How long answers are still sent after the host ended its input; default `HOST_LIMITS.drainAfterInputEndMs`. */
  readonly drainAfterInputEndMs?: number;
}

/** The executor's budgets of host requests in flight, shared by all its connections. */
const executorBudget = hostRequestBudget();
const executorLongRunningBudget = hostRequestBudget(HOST_LIMITS.maxLongRunningInFlight);

/** How many refusals of one connection are logged one by one before only every thousandth is. */
const LOGGED_REFUSALS = 100;

const isLongRunning = (method: string): boolean => HOST_LIMITS.longRunningMethods.includes(method);

const LIMITS = { maxBytes: HOST_LIMITS.maxMessageBytes, maxDepth: HOST_LIMITS.maxNestingDepth };

/** A JSON-RPC connection to a host over `channel`, every inbound message checked first. */
export function guardedHostConnection(channel: HostChannel, options: GuardOptions): MessageConnection {
  const { log } = options;
  const budget = options.budget ?? executorBudget;
  const longBudget = options.longRunningBudget ?? executorLongRunningBudget;
  const perConnection = options.maxRequestsPerConnection ?? HOST_LIMITS.maxRequestsPerConnection;
  const longPerConnection = options.maxLongRunningPerConnection ?? HOST_LIMITS.maxLongRunningPerConnection;
  const longRunning = { isLongRunning, max: longPerConnection };
  const overloadedMessage = {
    short: `too many requests in flight (at most ${perConnection} per connection, ${budget.limit} in all); retry later`,
    longRunning: `too many long-running requests in flight (at most ${longPerConnection} per connection, ${longBudget.limit} in all); retry later`,
  };
  let gate: GateState = initialGateState;
  // The log of refusals is bounded too: the first ones, then every thousandth, with the running count.
  let refusals = 0;
  const logRefusal = (event: string, fields: Record<string, unknown>): void => {
    refusals += 1;
    if (refusals <= LOGGED_REFUSALS || refusals % 1000 === 0) log({ event, fields: { ...fields, refusals } });
  };
  let closed = false;
  let paused = false;
  // After the host ended its input: the answers still owed, then the close (bounded by `drainMs`).
  const drainMs = options.drainAfterInputEndMs ?? HOST_LIMITS.drainAfterInputEndMs;
  let draining = false;
  let owed: 'all' | 'short' = 'all';
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  const pendingSends = new Set<Promise<unknown>>();
  const requestsInFlight = (): number => shortRequestsInFlight(gate) + longRunningRequestsInFlight(gate);
  const answersOwed = (): number => (owed === 'short' ? shortRequestsInFlight(gate) : requestsInFlight());
  const finishDrain = (): void => {
    if (!draining || closed || answersOwed() > 0) return;
    draining = false;
    clearTimeout(drainTimer);
    void Promise.allSettled([...pendingSends]).then(() => channel.destroy());
  };
  const startDrain = (scope: 'all' | 'short'): void => {
    if (closed || draining) return;
    owed = scope;
    draining = true;
    drainTimer = setTimeout(() => {
      if (closed) return;
      log({ event: 'host input ended: requests still in flight cut', fields: { requests: answersOwed(), afterMs: drainMs } });
      draining = false;
      channel.destroy();
    }, drainMs);
    finishDrain();
  };
  channel.onInputEnd?.(startDrain);
  channel.onClose(() => clearTimeout(drainTimer));

  const setGate = (next: GateState): void => {
    if (!closed) {
      budget.adjust(shortRequestsInFlight(next) - shortRequestsInFlight(gate));
      longBudget.adjust(longRunningRequestsInFlight(next) - longRunningRequestsInFlight(gate));
    }
    gate = next;
  };
  const afterSend = (): void => {
    const unsent = channel.unsentBytes();
    if (unsent > HOST_LIMITS.disconnectAboveBytes) {
      log({ event: 'host disconnected: output not read', fields: { unsentBytes: unsent } });
      channel.destroy();
    } else if (!paused && unsent > HOST_LIMITS.pauseReadingAboveBytes) {
      paused = true;
      log({ event: 'host reading paused: output not taken', fields: { unsentBytes: unsent } });
      channel.pause();
    }
  };
  const onSent = (): void => {
    if (paused && channel.unsentBytes() <= HOST_LIMITS.pauseReadingAboveBytes / 2) {
      paused = false;
      log({ event: 'host reading resumed', fields: {} });
      channel.resume();
    }
  };
  const send = (message: object): Promise<void> => {
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch {
      return Promise.reject(new Error('the message is not representable as JSON'));
    }
    const sent = channel.send(text).then(onSent);
    const tracked = sent.catch(() => undefined).finally(() => pendingSends.delete(tracked));
    pendingSends.add(tracked);
    afterSend();
    return sent;
  };
  const answer = (id: string | number | null, code: number, message: string, data?: object): void =>
    void send({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }).catch(() => undefined);

  const refuse = (refusal: InboundRefusal): void => {
    logRefusal('host message refused', { reason: describeInboundRefusal(refusal) });
    const reply = inboundErrorReply(refusal);
    // A malformed request reusing the id of one in flight is answered with id null: that id's one answer is the other request's.
    if (reply !== null) answer(refusalReplyId(gate, reply.id), reply.error.code, reply.error.message, { tag: refusal._tag });
  };

  const admit = (decoded: InboundMessage, deliver: DataCallback): void => {
    if (decoded._tag === 'Refused') return refuse(decoded.refusal);
    const step = admitInbound(gate, decoded.message, perConnection, { short: budget.hasRoom(), longRunning: longBudget.hasRoom() }, longRunning);
    setGate(step.state);
    const decision = step.decision;
    switch (decision._tag) {
      case 'Deliver':
        return deliver({ jsonrpc: '2.0', ...decoded.message } as Message);
      case 'Overloaded': {
        const long = 'method' in decoded.message && isLongRunning(decoded.message.method);
        logRefusal('host request refused', long ? { reason: 'overloaded (long-running)', inFlight: longBudget.inFlight() } : { reason: 'overloaded', inFlight: budget.inFlight() });
        return answer(decision.id, HostErrorCode.Overloaded, long ? overloadedMessage.longRunning : overloadedMessage.short, { tag: 'Overloaded', retryable: true });
      }
      case 'Duplicate':
        logRefusal('host request refused', { reason: 'duplicate id' });
        return answer(decision.id, HostErrorCode.InvalidRequest, 'Invalid request: a request with this id is still in flight', { tag: 'DuplicateRequestId' });
      case 'Drop':
        return logRefusal('host message dropped', { reason: decision.reason === 'UnknownResponse' ? 'a response to no request in flight' : 'a cancel of no request in flight' });
    }
  };

  class Reader extends AbstractMessageReader {
    constructor() {
      super();
      channel.onClose(() => {
        if (!closed) {
          budget.adjust(-shortRequestsInFlight(gate));
          longBudget.adjust(-longRunningRequestsInFlight(gate));
        }
        closed = true;
        this.fireClose();
      });
      channel.onError((error) => this.fireError(error));
    }
    listen(callback: DataCallback): Disposable {
      let listening = true;
      channel.listen((frame) => {
        if (!listening) return;
        admit(frame._tag === 'Refused' ? { _tag: 'Refused', refusal: frame.refusal } : decodeInboundBytes(frame.bytes, LIMITS), callback);
      });
      return { dispose: () => void (listening = false) };
    }
  }

  class Writer extends AbstractMessageWriter {
    write(message: Message): Promise<void> {
      setGate(recordOutbound(gate, message as JsonRpcMessage));
      const sent = send(message);
      finishDrain();
      return sent.catch((error: unknown) => {
        // An answer that cannot be serialised still answers its request.
        const id = (message as { id?: unknown }).id;
        if ('result' in message && (typeof id === 'string' || typeof id === 'number')) answer(id, HostErrorCode.InternalError, 'the result could not be serialised');
        throw error;
      });
    }
    end(): void {
      channel.end();
    }
  }

  return createMessageConnection(new Reader(), new Writer());
}

