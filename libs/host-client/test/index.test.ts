/**
 * Pins the runtime exports of every entry point: a change to the public API shows up here as a diff.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as node from '../src/node/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/host-client', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'HOST_CLIENT_DEFAULTS',
      'browserWebSocketTransport',
      'createHostClient',
      'describeHostClientError',
    ]);
  });

  it('pins the runtime exports of "./node"', () => {
    expect(Object.keys(node).sort()).toEqual(['connectExecutorWebSocket', 'defaultServePath', 'nodeWebSocketTransport', 'openExecutorSocket', 'serveArguments', 'spawnExecutor', 'stdioTransport'].sort());
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing)).toEqual(['fakeExecutor']);
  });
});
