import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fail, hang, respond, say, type Script } from '../src/index.js';
import { decide, type IncomingRequest } from '../src/Dispatch.js';
import { script as scriptArb } from './arbitraries.js';

const body = JSON.stringify({ model: 'mock-model', stream: true, input: [] });
const post = (bodyText = body, path = '/v1/responses'): IncomingRequest => ({ method: 'POST', path, bodyText });

describe('decide', () => {
  it('answers a responses request with the next script entry as a stream', () => {
    const d = decide([respond(say('Hi'))], 0, post(), 7);
    expect(d.reply._tag).toBe('Stream');
    expect(d.outcome).toEqual({ _tag: 'Answered', responseIndex: 0, response: 'steps' });
    expect(d.next).toBe(1);
    expect(d.body).toEqual({ model: 'mock-model', stream: true, input: [] });
    expect(d.reply._tag === 'Stream' && d.reply.events[0]?.['response']).toMatchObject({ id: 'resp_0', created_at: 7, model: 'mock-model' });
  });

  it('answers a scripted failure with its status and an OpenAI error body', () => {
    const d = decide([fail(503, 'overloaded')], 0, post(), 0);
    expect(d.reply).toEqual({ _tag: 'HttpError', status: 503, body: { error: { message: 'overloaded', type: 'scripted_failure', code: null } } });
    expect(d.outcome).toEqual({ _tag: 'Answered', responseIndex: 0, response: 'fail' });
    expect(d.next).toBe(1);
  });

  it('answers hang with only response.created', () => {
    const d = decide([hang()], 0, post(), 0);
    expect(d.reply._tag).toBe('Hang');
    expect(d.reply._tag === 'Hang' && d.reply.events.map((e) => e.type)).toEqual(['response.created']);
  });

  it('rejects unknown routes without consuming the script', () => {
    for (const [method, path] of [
      ['GET', '/v1/responses'],
      ['POST', '/v1/chat/completions'],
      ['GET', '/v1/models'],
    ] as const) {
      const d = decide([respond(say('x'))], 0, { method, path, bodyText: body }, 0);
      expect(d.outcome).toEqual({ _tag: 'Rejected', rejection: { _tag: 'UnexpectedRoute', method, path } });
      expect(d.reply).toMatchObject({ _tag: 'HttpError', status: 404 });
      expect(d.next).toBe(0);
    }
    expect(decide([respond(say('x'))], 0, post(body, '/v1/responses?x=1'), 0).reply._tag).toBe('Stream');
  });

  it('rejects bodies that are not JSON or not a streaming responses request', () => {
    const notJson = decide([respond()], 0, post('{'), 0);
    expect(notJson.outcome).toMatchObject({ _tag: 'Rejected', rejection: { _tag: 'BodyNotJson' } });
    expect(notJson.reply).toMatchObject({ status: 400 });
    const notStreaming = decide([respond()], 0, post(JSON.stringify({ model: 'm', stream: false, input: [] })), 0);
    expect(notStreaming.outcome).toEqual({
      _tag: 'Rejected',
      rejection: { _tag: 'NotAResponsesRequest', issues: [{ path: 'body.stream', expected: 'true', actual: 'a boolean' }] },
    });
    expect(notStreaming.reply._tag === 'HttpError' && notStreaming.reply.body.error.message).toContain('body.stream: expected true, got a boolean');
    expect(notStreaming.next).toBe(0);
  });

  it('fails fast once the script is exhausted', () => {
    const d = decide([respond(say('only'))], 1, post(), 0);
    expect(d.outcome).toEqual({ _tag: 'Rejected', rejection: { _tag: 'ScriptExhausted', scriptLength: 1 } });
    expect(d.reply).toMatchObject({ _tag: 'HttpError', status: 410 });
    expect(d.reply._tag === 'HttpError' && d.reply.body.error.message).toBe('scripted model: script exhausted, all 1 responses were used');
  });

  it('consumes the script in order, one entry per valid request, then rejects', () => {
    fc.assert(
      fc.property(scriptArb, fc.array(fc.boolean(), { maxLength: 12 }), (script: Script, validity) => {
        let next = 0;
        const answered: number[] = [];
        for (const valid of validity) {
          const d = decide(script, next, valid ? post() : post('nope'), 0);
          if (d.outcome._tag === 'Answered') {
            answered.push(d.outcome.responseIndex);
            expect(d.outcome.response).toBe(script[d.outcome.responseIndex]?.kind);
          } else {
            expect(valid ? 'ScriptExhausted' : 'BodyNotJson').toBe(d.outcome.rejection._tag);
          }
          next = d.next;
        }
        const validCount = validity.filter(Boolean).length;
        expect(answered).toEqual([...Array(Math.min(validCount, script.length)).keys()]);
      }),
    );
  });

  it('never throws on arbitrary request bodies', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v))), (text) => {
        const d = decide([respond(say('x'))], 0, post(text), 0);
        expect(['Stream', 'HttpError']).toContain(d.reply._tag);
      }),
    );
  });
});
