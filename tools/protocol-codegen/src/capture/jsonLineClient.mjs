/**
 * A minimal JSON-RPC client over newline-delimited JSON on a child process's stdio, as
 * `codex app-server` speaks it. Records every message it receives.
 */

/**
 * @typedef {{ id?: number | string, method?: string, params?: unknown, result?: unknown,
 *   error?: { code: number, message: string } }} Message
 */

/** Messages already handed out by `next`. */
const claimed = new WeakSet();

/**
 * @param {import('node:child_process').ChildProcessWithoutNullStreams} child
 */
export function jsonLineClient(child) {
  /** @type {Message[]} */
  const received = [];
  /** @type {Map<number | string, { resolve: (m: Message) => void }>} */
  const pending = new Map();
  /** @type {Array<{ match: (m: Message) => boolean, resolve: (m: Message) => void }>} */
  const waiters = [];
  let nextId = 1;
  let buffer = '';

  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line) onMessage(/** @type {Message} */ (JSON.parse(line)));
    }
  });

  /** @param {Message} message */
  function onMessage(message) {
    received.push(message);
    if (message.method === undefined && message.id !== undefined) {
      pending.get(message.id)?.resolve(message);
      pending.delete(message.id);
      return;
    }
    for (const waiter of [...waiters]) {
      if (waiter.match(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  }

  /** @param {Message} message */
  function send(message) {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  return {
    received,
    /**
     * Sends a request and waits for its response.
     * @param {string} method
     * @param {unknown} [params]
     * @returns {Promise<Message>}
     */
    request(method, params) {
      const id = nextId++;
      const response = new Promise((resolve) => pending.set(id, { resolve }));
      send(params === undefined ? { id, method } : { id, method, params });
      return /** @type {Promise<Message>} */ (response);
    },
    /** @param {string} method @param {unknown} [params] */
    notify(method, params) {
      send(params === undefined ? { method } : { method, params });
    },
    /** @param {number | string} id @param {unknown} result */
    respond(id, result) {
      send({ id, result });
    },
    /**
     * Waits for a message from the server (a request or a notification) with the given method.
     * Messages received earlier count too.
     * @param {string} method
     * @param {(m: Message) => boolean} [where]
     * @returns {Promise<Message>}
     */
    next(method, where = () => true) {
      const match = (/** @type {Message} */ m) => m.method === method && where(m);
      const seen = received.find((m) => match(m) && !claimed.has(m));
      if (seen) {
        claimed.add(seen);
        return Promise.resolve(seen);
      }
      return new Promise((resolve) =>
        waiters.push({
          match,
          resolve: (m) => {
            claimed.add(m);
            resolve(m);
          },
        }),
      );
    },
  };
}
