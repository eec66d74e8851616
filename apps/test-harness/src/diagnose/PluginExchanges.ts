/**
 * Pairs the JSON-RPC requests in a plugin's recorded MCP traffic with their replies, both ways:
 * Codex → plugin (`tools/call`) and plugin → Codex (`elicitation/create`). Ids are matched within
 * their own direction, as JSON-RPC scopes them per sender.
 *
 * Every function here is pure: log entries in, exchanges out.
 */
import { classifyMessage, type ProxyLogEntry } from '../proxy/index.js';
import { isRecord } from '@wework/decode-issues';

/** Who sent a request: Codex's MCP client, or the plugin. */
export type Sender = 'codex' | 'plugin';

/** A JSON-RPC error as it came back. */
export interface RpcError {
  readonly code: number | null;
  readonly message: string;
}

/** One request and, when it came, its reply. */
export interface Exchange {
  readonly sender: Sender;
  /** Position in the log: requests and replies of all exchanges share this order. */
  readonly seq: number;
  readonly method: string;
  readonly params: unknown;
  readonly reply: { readonly seq: number; readonly result: unknown } | { readonly seq: number; readonly error: RpcError } | null;
}

function rpcError(u: unknown): RpcError {
  if (!isRecord(u)) return { code: null, message: JSON.stringify(u) ?? 'unknown error' };
  return { code: typeof u['code'] === 'number' ? u['code'] : null, message: typeof u['message'] === 'string' ? u['message'] : JSON.stringify(u) };
}

/**
 * The exchanges of one plugin's log, in the order the requests were seen. `client-to-server` is
 * Codex → plugin; `server-to-client` is plugin → Codex.
 */
export function pairExchanges(entries: ReadonlyArray<ProxyLogEntry>): ReadonlyArray<Exchange> {
  type Open = { sender: Sender; seq: number; method: string; params: unknown; id: string | number; reply: Exchange['reply'] };
  const exchanges: Open[] = [];
  for (const entry of entries) {
    if (!('message' in entry)) continue;
    const from: Sender = entry.direction === 'client-to-server' ? 'codex' : 'plugin';
    const kind = classifyMessage(entry.message);
    if (kind.kind === 'request') {
      const params = isRecord(entry.message) ? entry.message['params'] : undefined;
      exchanges.push({ sender: from, seq: entry.seq, method: kind.method, params, id: kind.id, reply: null });
    } else if (kind.kind === 'response' && isRecord(entry.message)) {
      // A reply travels the other way: it answers a request of the other sender.
      const open = exchanges.find((exchange) => exchange.sender !== from && exchange.reply === null && exchange.id === kind.id);
      if (open === undefined) continue;
      open.reply = kind.ok ? { seq: entry.seq, result: entry.message['result'] } : { seq: entry.seq, error: rpcError(entry.message['error']) };
    }
  }
  return exchanges.map(({ sender, seq, method, params, reply }) => ({ sender, seq, method, params, reply }));
}
