/**
 * The main entry runs in a browser: bundled by esbuild for `platform: 'browser'` with every Node
 * built-in refused, it builds; and it speaks through a browser-style `WebSocket` with the launch token
 * as its subprotocol. The executor's per-connection bounds it keeps are the ones docs/host-protocol.md states.
 */
import { HOST_LIMITS } from '@wework/host-protocol';
import { builtinModules } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { browserWebSocketTransport, createHostClient } from '../src/index.js';
import type { WebSocketLike } from '../src/BrowserWebSocket.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

describe('the main entry in a browser', () => {
  it('bundles for the browser with no Node built-in anywhere in its import graph', async () => {
    const refused: string[] = [];
    const refuseNode: Plugin = {
      name: 'refuse-node',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind === 'entry-point' || !(args.path.startsWith('node:') || builtins.has(args.path) || builtins.has(args.path.split('/')[0] ?? ''))) return undefined;
          refused.push(`${args.path} (from ${args.importer})`);
          return { errors: [{ text: `Node built-in ${args.path}` }] };
        });
      },
    };
    const result = await build({
      entryPoints: [join(root, 'src/index.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      conditions: ['@wework/source', 'browser'],
      plugins: [refuseNode],
      logLevel: 'silent',
    });
    expect(refused).toEqual([]);
    const text = result.outputFiles[0]?.text ?? '';
    expect(text).toContain('card/show');
    expect(text).not.toMatch(/vscode-jsonrpc|from ["']node:/);
  });

  it('offers the token as the subprotocol and speaks one message per frame', async () => {
    const sockets: Fake[] = [];
    class Fake implements WebSocketLike {
      readyState = 0;
      onopen: ((event: unknown) => void) | null = null;
      onmessage: ((event: { readonly data: unknown }) => void) | null = null;
      onclose: ((event: unknown) => void) | null = null;
      readonly sent: string[] = [];
      constructor(
        readonly url: string,
        readonly protocols: string[],
      ) {
        sockets.push(this);
      }
      send(data: string): void {
        this.sent.push(data);
      }
      close(): void {
        this.readyState = 3;
        this.onclose?.({});
      }
    }
    const client = createHostClient({ connect: browserWebSocketTransport('ws://127.0.0.1:1/', 'ab'.repeat(32), { WebSocket: Fake, maxMessageChars: 200 }), resumeOnConnect: false });
    const started = client.start();
    const socket = sockets[0]!;
    expect(socket.protocols).toEqual(['ab'.repeat(32)]);
    socket.readyState = 1;
    socket.onopen?.({});
    expect(await started).toEqual(E.right(undefined));
    const listed = client.request('task/list', {});
    expect(JSON.parse(socket.sent[0] ?? '')).toEqual({ jsonrpc: '2.0', id: 1, method: 'task/list', params: {} });
    const violations: string[] = [];
    client.onViolation((v) => void violations.push(v.kind));
    socket.onmessage?.({ data: `{"id":1,"result":{"tasks":[]},"pad":"${'x'.repeat(300)}"}` });
    socket.onmessage?.({ data: new Uint8Array([1]) });
    socket.onmessage?.({ data: '{"jsonrpc":"2.0","id":1,"result":{"tasks":[]}}' });
    expect(await listed).toEqual(E.right({ tasks: [] }));
    expect(violations).toEqual(['TooLarge', 'NotText']);
    await client.close();
  });

  it('keeps the bounds of docs/host-protocol.md', () => {
    const doc = readFileSync(join(root, '../../docs/host-protocol.md'), 'utf8');
    expect(doc).toContain(`| host requests in flight (received, not yet answered) on one connection | ${HOST_LIMITS.maxRequestsPerConnection} |`);
    expect(doc).toContain(`| ${HOST_LIMITS.maxLongRunningPerConnection} per connection`);
    expect(doc).toContain(`long-running host requests in flight (${HOST_LIMITS.longRunningMethods.map((m) => `\`${m}\``).join(', ')}`);
  });
});
