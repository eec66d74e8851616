import { describe, expect, it } from 'vitest';
import { createAppServerClient, onClosed, type AppServerClient } from '../src/index.js';
import { fakePeer, type FakePeer } from './support/fakePeer.js';

/** A client over a fake peer; every test here ends the client it makes. */
function connect(): { peer: FakePeer; client: AppServerClient } {
  const peer = fakePeer();
  return { peer, client: createAppServerClient({ input: peer.input, output: peer.output }) };
}

const microtasks = async (): Promise<void> => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

describe('onClosed', () => {
  it('calls the listener once with the reason, as the client ends and before client.closed resolves', async () => {
    const { peer, client } = connect();
    const seen: string[] = [];
    onClosed(client, (error) => seen.push(`listener ${error._tag}`));
    void client.closed.then((error) => seen.push(`closed ${error._tag}`));
    peer.end();
    await client.closed;
    await microtasks();
    client.dispose();
    await microtasks();
    expect(seen).toEqual(['listener ConnectionClosed', 'closed ConnectionClosed']);
  });

  it('on a client that has already ended, calls it on a later microtask, once', async () => {
    const { client } = connect();
    client.dispose();
    const seen: string[] = [];
    onClosed(client, (error) => seen.push(error._tag));
    expect(seen).toEqual([]);
    await microtasks();
    expect(seen).toEqual(['Disposed']);
  });

  it('never calls a listener disposed before the end, on an open client or an ended one', async () => {
    const { client } = connect();
    const seen: string[] = [];
    onClosed(client, () => seen.push('open')).dispose();
    client.dispose();
    onClosed(client, () => seen.push('ended')).dispose();
    await microtasks();
    expect(seen).toEqual([]);
  });

  it('is not called for events that do not end the client', async () => {
    const { peer, client } = connect();
    const seen: string[] = [];
    onClosed(client, (error) => seen.push(error._tag));
    // A line that is not JSON raises a MalformedMessage event; the client stays open.
    peer.input.write('not json\n');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.terminalError).toBeUndefined();
    expect(seen).toEqual([]);
    client.dispose();
    expect(seen).toEqual(['Disposed']);
  });

  it('ignores a listener that throws, on an open client and on an ended one, and still calls the others', async () => {
    const { client } = connect();
    const seen: string[] = [];
    onClosed(client, () => {
      throw new Error('listener failed');
    });
    onClosed(client, (error) => seen.push(`open ${error._tag}`));
    client.dispose();
    onClosed(client, () => {
      throw new Error('listener failed');
    });
    onClosed(client, (error) => seen.push(`ended ${error._tag}`));
    await microtasks();
    expect(seen).toEqual(['open Disposed', 'ended Disposed']);
  });
});
