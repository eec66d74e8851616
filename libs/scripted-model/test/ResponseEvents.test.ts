import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyPatch, callFunction, callTool, reasoning, say, shell, type Step } from '../src/index.js';
import { formatSse, hangEvents, responseEvents, textDeltas, type ResponseContext, type ResponseEvent } from '../src/ResponseEvents.js';
import { generatedIdStep, jsonObject, step } from './arbitraries.js';

const context: ResponseContext = { responseNumber: 3, model: 'mock-model', createdAt: 1_700_000_000, inputTokens: 100 };

function itemsDone(events: ReadonlyArray<ResponseEvent>): ReadonlyArray<Record<string, unknown>> {
  return events.filter((e) => e.type === 'response.output_item.done').map((e) => e['item'] as Record<string, unknown>);
}

/** Parses an SSE stream back into its `event:` names and `data:` payloads. */
function parseSse(stream: string): ReadonlyArray<{ event: string; data: unknown }> {
  return stream
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) => {
      const [eventLine, dataLine, ...rest] = block.split('\n');
      expect(rest).toEqual([]);
      expect(eventLine?.startsWith('event: ')).toBe(true);
      expect(dataLine?.startsWith('data: ')).toBe(true);
      return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) as unknown };
    });
}

describe('responseEvents', () => {
  it('streams an assistant message in the order Codex expects', () => {
    const events = responseEvents([say('Hello there')], context);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(itemsDone(events)).toEqual([
      { type: 'message', id: 'msg_3_0', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello there', annotations: [] }] },
    ]);
    const completed = events.at(-1)!;
    expect(completed['response']).toMatchObject({ id: 'resp_3', status: 'completed', model: 'mock-model', usage: { input_tokens: 100 } });
  });

  it('emits an MCP tool call as a namespaced function call', () => {
    const [item] = itemsDone(responseEvents([callTool('forms', 'echo', { text: 'hi' })], context));
    expect(item).toEqual({
      type: 'function_call',
      id: 'fc_3_0',
      status: 'completed',
      call_id: 'call_3_0',
      name: 'echo',
      namespace: 'mcp__forms',
      arguments: '{"text":"hi"}',
    });
  });

  it('emits shell as exec_command, applyPatch as a custom tool call, reasoning as a summary', () => {
    const items = itemsDone(
      responseEvents(
        [
          reasoning('Because'),
          shell('touch x', { sandboxPermissions: 'require_escalated', justification: 'Create x?' }),
          applyPatch('*** Begin Patch\n*** End Patch\n', { callId: 'patch-1' }),
          callFunction('view_image', { path: 'a.png' }),
        ],
        context,
      ),
    );
    expect(items).toEqual([
      { type: 'reasoning', id: 'rs_3_0', summary: [{ type: 'summary_text', text: 'Because' }] },
      {
        type: 'function_call',
        id: 'fc_3_1',
        status: 'completed',
        call_id: 'call_3_1',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: 'touch x', sandbox_permissions: 'require_escalated', justification: 'Create x?' }),
      },
      { type: 'custom_tool_call', id: 'ctc_3_2', status: 'completed', call_id: 'patch-1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
      { type: 'function_call', id: 'fc_3_3', status: 'completed', call_id: 'call_3_3', name: 'view_image', arguments: '{"path":"a.png"}' },
    ]);
  });

  it('brackets every item with added/done at its output index, in step order, between created and completed', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 6 }), (steps) => {
        const events = responseEvents(steps, context);
        expect(events[0]?.type).toBe('response.created');
        expect(events.at(-1)?.type).toBe('response.completed');
        expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
        let open: number | undefined;
        let nextIndex = 0;
        for (const event of events.slice(1, -1)) {
          if (event.type === 'response.output_item.added') {
            expect(open).toBeUndefined();
            expect(event['output_index']).toBe(nextIndex);
            open = nextIndex;
          } else if (event.type === 'response.output_item.done') {
            expect(event['output_index']).toBe(open);
            open = undefined;
            nextIndex += 1;
          } else {
            expect(open).toBeDefined();
            expect(event['output_index']).toBe(open);
          }
        }
        expect(nextIndex).toBe(steps.length);
        const completedOutput = (events.at(-1)!['response'] as { output: unknown }).output;
        expect(completedOutput).toEqual(itemsDone(events));
      }),
    );
  });

  it('gives unique item ids and call ids across the responses of a run', () => {
    fc.assert(
      fc.property(fc.array(fc.array(generatedIdStep, { maxLength: 4 }), { maxLength: 4 }), (responses) => {
        const items = responses.flatMap((steps, n) => itemsDone(responseEvents(steps, { ...context, responseNumber: n })));
        const ids = items.map((i) => i['id']);
        const callIds = items.filter((i) => 'call_id' in i).map((i) => i['call_id']);
        expect(new Set(ids).size).toBe(ids.length);
        expect(new Set(callIds).size).toBe(callIds.length);
        const responseIds = responses.map((steps, n) => (responseEvents(steps, { ...context, responseNumber: n })[0]!['response'] as { id: string }).id);
        expect(new Set(responseIds).size).toBe(responseIds.length);
      }),
    );
  });

  it('streams text deltas that concatenate to the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.constantFrom<(t: string) => Step>(say, reasoning), (text, make) => {
        const events = responseEvents([make(text)], context);
        const deltas = events.filter((e) => e.type.endsWith('text.delta')).map((e) => e['delta'] as string);
        expect(deltas.join('')).toBe(text);
        expect(events.find((e) => e.type.endsWith('text.done'))?.['text']).toBe(text);
      }),
    );
  });

  it('sends call arguments whose JSON round trips to the scripted arguments', () => {
    fc.assert(
      fc.property(jsonObject, (args) => {
        const events = responseEvents([callTool('srv', 'tool', args)], context);
        const [item] = itemsDone(events);
        expect(JSON.parse(item!['arguments'] as string)).toEqual(args);
        const streamed = events.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e['delta']);
        expect(streamed.join('')).toBe(item!['arguments']);
      }),
    );
  });

  it('renders a stream that parses back to the same events', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 4 }), (steps) => {
        const events = responseEvents(steps, context);
        expect(parseSse(formatSse(events))).toEqual(events.map((e) => ({ event: e.type, data: e })));
      }),
    );
  });
});

describe('hangEvents', () => {
  it('is only response.created', () => {
    expect(hangEvents(context).map((e) => e.type)).toEqual(['response.created']);
  });
});

describe('textDeltas', () => {
  it('splits at whitespace and never inside a surrogate pair', () => {
    expect(textDeltas('Hello  wide 🌍 world\n')).toEqual(['Hello  ', 'wide ', '🌍 ', 'world\n']);
    expect(textDeltas('')).toEqual([]);
    expect(textDeltas('   ')).toEqual(['   ']);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        for (const delta of textDeltas(text)) expect(/[\uD800-\uDFFF]/u.test(delta)).toBe(false);
      }),
    );
  });
});
