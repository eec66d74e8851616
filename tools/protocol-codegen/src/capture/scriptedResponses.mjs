/**
 * A loopback stand-in for the OpenAI Responses API that answers each `POST /v1/responses`
 * with a scripted server-sent-event stream, chosen by a function of the request. Just enough to drive Codex turns offline.
 */
import { createServer } from 'node:http';

/**
 * @typedef {{ kind: 'message', text: string }
 *   | { kind: 'functionCall', name: string, namespace?: string, arguments: unknown }} ScriptedReply
 */

/**
 * @param {(request: any) => ScriptedReply} script picks the reply to each request body
 */
export async function startScriptedResponses(script) {
  /** @type {unknown[]} */
  const requests = [];
  let counter = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
        res.writeHead(404).end();
        return;
      }
      const request = JSON.parse(body);
      requests.push(request);
      const reply = script(request);
      counter += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of eventsOf(reply, counter)) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

/**
 * @param {ScriptedReply} reply
 * @param {number} n
 */
function eventsOf(reply, n) {
  const responseId = `resp_${n}`;
  const response = { id: responseId, object: 'response', status: 'in_progress', output: [] };
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  if (reply.kind === 'message') {
    const item = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
    return [
      { type: 'response.created', response },
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', output_index: 0, item_id: item.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', output_index: 0, item_id: item.id, content_index: 0, delta: reply.text },
      { type: 'response.output_text.done', output_index: 0, item_id: item.id, content_index: 0, text: reply.text },
      { type: 'response.content_part.done', output_index: 0, item_id: item.id, content_index: 0, part: item.content[0] },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage } },
    ];
  }
  const item = {
    type: 'function_call',
    id: `fc_${n}`,
    call_id: `call_${n}`,
    name: reply.name,
    ...(reply.namespace ? { namespace: reply.namespace } : {}),
    arguments: JSON.stringify(reply.arguments),
    status: 'completed',
  };
  return [
    { type: 'response.created', response },
    { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } },
    { type: 'response.function_call_arguments.delta', output_index: 0, item_id: item.id, delta: item.arguments },
    { type: 'response.function_call_arguments.done', output_index: 0, item_id: item.id, arguments: item.arguments },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage } },
  ];
}
