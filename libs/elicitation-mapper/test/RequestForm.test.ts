/**
 * requestForm: sends only when the client declares form elicitation (the MCP SDK's rule) and the
 * schema can be rendered, and resolves every ending to a typed outcome, never rejecting.
 * The servers here are small structural stand-ins for the SDK's low-level `Server`: they record
 * what was sent and answer as a client would.
 */
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { requestForm } from '../src/index.js';
import { supportsFormElicitation, type FormElicitingServer } from '../src/RequestForm.js';

const form = {
  mode: 'form' as const,
  message: 'Choose a deployment target',
  requestedSchema: {
    type: 'object' as const,
    properties: { target: { type: 'string', oneOf: [{ const: 'staging', title: 'Staging' }, { const: 'production', title: 'Production' }] } },
    required: ['target'],
  },
};
type Params = typeof form | Record<string, unknown>;

/** A server whose client declared `capabilities` and answers with `answer`. */
const serverWith = (capabilities: unknown, answer: () => Promise<unknown>) => {
  const sent: Array<{ params: unknown; options: unknown }> = [];
  const server: FormElicitingServer<Params, { timeout: number }> = {
    getClientCapabilities: () => capabilities,
    elicitInput: (params, options) => {
      sent.push({ params, options });
      return answer();
    },
  };
  return { server, sent };
};
const formClient = { elicitation: { form: {}, url: {} } };

describe('supportsFormElicitation', () => {
  test.each([
    [{ elicitation: { form: {} } }, true],
    [{ elicitation: { form: {}, url: {} } }, true],
    [{ elicitation: { form: { applyDefaults: true } } }, true],
    [{ elicitation: {} }, true],
    [{ elicitation: { url: {} } }, false],
    [{ elicitation: { something: {} } }, false],
    [{ elicitation: null }, false],
    [{ elicitation: true }, false],
    [{ sampling: {} }, false],
    [{}, false],
    [undefined, false],
  ])('%j → %s', (capabilities, expected) => {
    expect(supportsFormElicitation(capabilities)).toBe(expected);
  });
});

describe('requestForm', () => {
  test('accepted content comes back typed; request options are passed on', async () => {
    const { server, sent } = serverWith(formClient, async () => ({ action: 'accept', content: { target: 'production' } }));
    expect(await requestForm(server, form, { requestOptions: { timeout: 5 } })).toEqual({ _tag: 'Accepted', content: { target: 'production' } });
    expect(sent).toEqual([{ params: form, options: { timeout: 5 } }]);
  });

  test('accept without content is accepted with {}', async () => {
    const { server } = serverWith(formClient, async () => ({ action: 'accept' }));
    expect(await requestForm(server, form)).toEqual({ _tag: 'Accepted', content: {} });
  });

  test('decline and cancel (also with the null content Codex sends)', async () => {
    expect(await requestForm(serverWith(formClient, async () => ({ action: 'decline', content: null, _meta: null })).server, form)).toEqual({ _tag: 'Declined' });
    expect(await requestForm(serverWith(formClient, async () => ({ action: 'cancel' })).server, form)).toEqual({ _tag: 'Cancelled' });
  });

  test('a client without form elicitation is not asked', async () => {
    for (const capabilities of [{}, { elicitation: { url: {} } }, undefined]) {
      const { server, sent } = serverWith(capabilities, async () => ({ action: 'accept', content: {} }));
      const outcome = await requestForm(server, form);
      expect(outcome).toMatchObject({ _tag: 'Unsupported', reason: { _tag: 'ClientLacksFormElicitation' } });
      expect(sent).toEqual([]);
    }
  });

  test('a schema Wework declines is not sent (unless checkSchema is false)', async () => {
    const numberEnum = { mode: 'form', message: 'Port?', requestedSchema: { type: 'object', properties: { port: { type: 'number', enum: [80, 443] } } } };
    const { server, sent } = serverWith(formClient, async () => ({ action: 'accept', content: { port: 80 } }));
    expect(await requestForm(server, numberEnum)).toMatchObject({ _tag: 'Unsupported', reason: { _tag: 'NonStringEnum', key: 'port' } });
    expect(sent).toEqual([]);
    expect(await requestForm(server, numberEnum, { checkSchema: false })).toEqual({ _tag: 'Accepted', content: { port: 80 } });
  });

  test('a mode other than form is not sent', async () => {
    const { server, sent } = serverWith(formClient, async () => ({ action: 'accept' }));
    expect(await requestForm(server, { mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' })).toMatchObject({
      _tag: 'Unsupported',
      reason: { _tag: 'UnsupportedMode', mode: 'url' },
    });
    expect(await requestForm(server, { ...form, mode: 'openai/form' })).toMatchObject({ _tag: 'Unsupported', reason: { _tag: 'UnsupportedMode' } });
    expect(sent).toEqual([]);
  });

  test('a rejection (timeout, invalid content) becomes Failed with its message', async () => {
    const { server } = serverWith(formClient, async () => {
      throw new Error('MCP error -32001: Request timed out');
    });
    expect(await requestForm(server, form)).toEqual({ _tag: 'Failed', message: 'MCP error -32001: Request timed out' });
  });

  test('an answer that is not an ElicitResult becomes Failed', async () => {
    for (const answer of [undefined, {}, { action: 'maybe' }, { action: 'accept', content: { x: { nested: 1 } } }]) {
      expect(await requestForm(serverWith(formClient, async () => answer).server, form)).toMatchObject({ _tag: 'Failed' });
    }
  });

  test('a server that throws synchronously, or is not a server at all, still resolves', async () => {
    const throwing = {
      getClientCapabilities: () => {
        throw new Error('not connected');
      },
      elicitInput: async () => ({ action: 'accept' }),
    };
    expect(await requestForm(throwing, form)).toEqual({ _tag: 'Failed', message: 'not connected' });
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), async (server, params) => {
        const outcome = await requestForm(server as FormElicitingServer<unknown>, params);
        expect(['Accepted', 'Declined', 'Cancelled', 'Unsupported', 'Failed']).toContain(outcome._tag);
      }),
      { numRuns: 50 },
    );
  });
});
