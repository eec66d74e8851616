/**
 * The raw app-server client of `rawClient.ts` in a process of its own, so that the CPU line can count
 * the client with its Codex child as it counts the executor with its own:
 * `node rawTurnProcess.js <codex home> <home> <workspace>`. It speaks line-delimited JSON-RPC on
 * stdin/stdout: `thread` answers a new thread's id, `turn` `{ threadId }` answers once that turn
 * completed. Ends with its stdin.
 */
import { createInterface } from 'node:readline';
import { rawServer, rawThread, rawTurn } from './rawClient.js';

const [codexHome = '', home = '', workspace = ''] = process.argv.slice(2);
const dirs = { codexHome, home, workspace };
const codex = await rawServer(dirs);

const answer = (id: unknown, result: unknown): void => void process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const request = JSON.parse(line) as { id: unknown; method: string; params?: { threadId?: string } };
  if (request.method === 'thread') void rawThread(codex, dirs).then((threadId) => answer(request.id, { threadId }));
  else if (request.method === 'turn') void rawTurn(codex, request.params?.threadId ?? '').then(() => answer(request.id, {}));
});
lines.once('close', () => void codex.close().then(() => process.exit(0)));
