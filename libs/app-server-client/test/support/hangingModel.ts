/**
 * A loopback Responses API server that accepts `POST /v1/responses`, answers with an event stream,
 * sends `response.created` and then never finishes: a turn against it stays in flight.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HangingModel {
  /** The provider base URL, ending in `/v1`. */
  readonly baseUrl: string;
  /** Resolves when the first `POST /v1/responses` has arrived and its stream has started. */
  readonly streaming: Promise<void>;
  close(): Promise<void>;
}

export async function startHangingModel(): Promise<HangingModel> {
  let started!: () => void;
  const streaming = new Promise<void>((resolve) => (started = resolve));
  const server = createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/responses') {
      response.writeHead(404).end();
      return;
    }
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const created = { type: 'response.created', response: { id: 'resp_hanging', object: 'response', status: 'in_progress', output: [] } };
      response.write(`event: response.created\ndata: ${JSON.stringify(created)}\n\n`);
      started();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    streaming,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
