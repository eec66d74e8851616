import { afterEach, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { callTool, fail, hang, respond, say, type Script } from '../src/index.js';
import { REDACTED } from '../src/RecordedRequest.js';
import { startScriptedModel, type ScriptedModel } from '../src/node/index.js';

const responsesBody = JSON.stringify({ model: 'mock-model', stream: true, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] });

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

async function start(script: Script): Promise<ScriptedModel> {
  model = await startScriptedModel({ script, host: '127.0.0.1' });
  return model;
}

function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
}

function sseTypes(text: string): ReadonlyArray<string> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('event: '))
    .map((line) => line.slice('event: '.length));
}

describe('startScriptedModel', () => {
  it('serves the script in order as SSE streams and records each request', async () => {
    const m = await start([respond(say('one')), respond(callTool('forms', 'echo', { text: 'x' }))]);
    expect(m.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(m.remaining).toBe(2);

    const first = await post(m.url, responsesBody, { authorization: 'Bearer sk-very-secret', cookie: 'a=b', 'x-codex-turn-metadata': '{"turn_id":"t"}' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const firstText = await first.text();
    expect(sseTypes(firstText)).toContain('response.output_text.delta');
    expect(sseTypes(firstText).at(-1)).toBe('response.completed');

    const second = await post(m.url, responsesBody);
    expect(await second.text()).toContain('"namespace":"mcp__forms"');
    expect(m.remaining).toBe(0);

    const [r0, r1] = m.requests;
    expect(r0).toMatchObject({ index: 0, method: 'POST', path: '/v1/responses', outcome: { _tag: 'Answered', responseIndex: 0, response: 'steps' } });
    expect(r0?.body).toEqual(JSON.parse(responsesBody));
    expect(r0?.headers['authorization']).toBe(REDACTED);
    expect(r0?.headers['cookie']).toBe(REDACTED);
    expect(r0?.headers['x-codex-turn-metadata']).toBe('{"turn_id":"t"}');
    expect(JSON.stringify(m.requests)).not.toContain('sk-very-secret');
    expect(r1?.outcome).toEqual({ _tag: 'Answered', responseIndex: 1, response: 'steps' });
  });

  it('answers an exhausted script, a wrong path and a malformed body with clear errors, and records them', async () => {
    const m = await start([respond(say('only'))]);
    await (await post(m.url, responsesBody)).text();

    const exhausted = await post(m.url, responsesBody);
    expect(exhausted.status).toBe(410);
    expect(await exhausted.json()).toEqual({
      error: { message: 'scripted model: script exhausted, all 1 responses were used', type: 'scripted_model_error', code: 'ScriptExhausted' },
    });

    const wrongPath = await fetch(`${m.url}/models`);
    expect(wrongPath.status).toBe(404);
    const malformed = await post(m.url, 'not json');
    expect(malformed.status).toBe(400);

    expect(m.requests.map((r) => r.outcome._tag === 'Rejected' && r.outcome.rejection._tag)).toEqual([false, 'ScriptExhausted', 'UnexpectedRoute', 'BodyNotJson']);
    expect(m.requests[2]).toMatchObject({ method: 'GET', path: '/v1/models' });
  });

  it('answers a scripted failure with its HTTP status and consumes the entry', async () => {
    const m = await start([fail(429, 'slow down'), respond(say('after'))]);
    const failed = await post(m.url, responsesBody);
    expect(failed.status).toBe(429);
    expect(await failed.json()).toEqual({ error: { message: 'slow down', type: 'scripted_failure', code: null } });
    expect((await post(m.url, responsesBody)).status).toBe(200);
  });

  it('decompresses gzip bodies and refuses unknown encodings', async () => {
    const m = await start([respond(say('zipped'))]);
    const zipped = await post(m.url, gzipSync(responsesBody), { 'content-encoding': 'gzip' });
    expect(zipped.status).toBe(200);
    await zipped.text();
    expect(m.requests[0]?.body).toEqual(JSON.parse(responsesBody));
    const zstd = await post(m.url, Buffer.from('x'), { 'content-encoding': 'zstd' });
    expect(zstd.status).toBe(415);
    expect(m.remaining).toBe(0);
  });

  it('refuses bodies over the size limit', async () => {
    model = await startScriptedModel({ script: [respond(say('x'))], maxBodyBytes: 16 });
    const big = await post(model.url, responsesBody);
    expect(big.status).toBe(413);
    expect(model.requests[0]?.outcome).toEqual({ _tag: 'Rejected', rejection: { _tag: 'BodyTooLarge', limitBytes: 16 } });
    expect(model.remaining).toBe(1);
  });

  it('keeps a hanging stream open until close() drops it', async () => {
    const m = await start([hang()]);
    const received: string[] = [];
    let firstData: () => void = () => undefined;
    const gotData = new Promise<void>((resolve) => (firstData = resolve));
    const ended = new Promise<string>((resolve) => {
      const req = httpRequest(`${m.url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          received.push(chunk);
          firstData();
        });
        res.on('end', () => resolve('end'));
        res.on('error', () => resolve('error'));
        res.on('close', () => resolve('close'));
      });
      req.on('error', () => resolve('error'));
      req.end(responsesBody);
    });
    const [recorded] = await m.waitForRequests(1);
    expect(recorded?.outcome).toEqual({ _tag: 'Answered', responseIndex: 0, response: 'hang' });
    await gotData;
    await m.close();
    expect(['error', 'close', 'end']).toContain(await ended);
    expect(received.join('')).toContain('event: response.created');
    expect(received.join('')).not.toContain('response.completed');
  });

  it('rejects pending waits on close, and close is idempotent', async () => {
    const m = await start([]);
    const waiting = m.waitForRequests(1);
    await m.close();
    await expect(waiting).rejects.toThrow(/closed after 0 of 1/);
    await m.close();
    await expect(m.waitForRequests(1)).rejects.toThrow(/closed/);
  });
});
