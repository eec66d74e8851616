import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  assistantMessages,
  contentText,
  functionCallOutputs,
  historyCalls,
  imagesAttached,
  inputItems,
  skillsAvailable,
  toolsOffered,
  userMessages,
} from '../src/index.js';

const echoOutput = [
  { type: 'input_text', text: 'Wall time: 0.0089 seconds\nOutput:' },
  { type: 'input_text', text: 'hi' },
];

/** Shaped like the second request of a Codex turn that called an MCP tool (codex 0.171.0). */
const request = {
  body: {
    model: 'mock-model',
    stream: true,
    tools: [
      { type: 'function', name: 'exec_command', parameters: { type: 'object' } },
      { type: 'namespace', name: 'mcp__forms', description: 'Tools in the mcp__forms namespace.', tools: [{ type: 'function', name: 'echo' }, { type: 'function', name: 'deploy' }] },
      { type: 'custom', name: 'apply_patch' },
      { type: 'web_search', external_web_access: false },
      'not a tool',
    ],
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are a coding agent.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>…</environment_context>' }] },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'use the tool' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
        ],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sure.', annotations: [] }] },
      { type: 'function_call', name: 'echo', namespace: 'mcp__forms', arguments: '{"text":"hi"}', call_id: 'call_1_0' },
      { type: 'function_call_output', call_id: 'call_1_0', output: echoOutput },
      { type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch', call_id: 'p1' },
      { type: 'custom_tool_call_output', call_id: 'p1', output: 'Success.' },
      42,
      { no: 'type' },
    ],
  },
};

describe('request queries', () => {
  it('flattens offered tools, keeping namespaces', () => {
    expect(toolsOffered(request)).toEqual([
      { type: 'function', name: 'exec_command' },
      { type: 'function', name: 'echo', namespace: 'mcp__forms' },
      { type: 'function', name: 'deploy', namespace: 'mcp__forms' },
      { type: 'custom', name: 'apply_patch' },
      { type: 'web_search', name: 'web_search' },
    ]);
  });

  it('lists the typed input items in order', () => {
    expect(inputItems(request).map((item) => item.type)).toEqual([
      'message',
      'message',
      'message',
      'message',
      'function_call',
      'function_call_output',
      'custom_tool_call',
      'custom_tool_call_output',
    ]);
  });

  it('finds the tool outputs that reached the model', () => {
    expect(functionCallOutputs(request)).toEqual([
      { callId: 'call_1_0', type: 'function_call_output', text: 'Wall time: 0.0089 seconds\nOutput:\nhi', output: echoOutput },
      { callId: 'p1', type: 'custom_tool_call_output', text: 'Success.', output: 'Success.' },
    ]);
  });

  it('finds the calls replayed in the history', () => {
    expect(historyCalls(request)).toEqual([
      { callId: 'call_1_0', type: 'function_call', name: 'echo', namespace: 'mcp__forms', arguments: '{"text":"hi"}' },
      { callId: 'p1', type: 'custom_tool_call', name: 'apply_patch', arguments: '*** Begin Patch' },
    ]);
  });

  it('reads user and assistant text and attached images', () => {
    expect(userMessages(request)).toEqual(['<environment_context>…</environment_context>', 'use the tool']);
    expect(assistantMessages(request)).toEqual(['Sure.']);
    expect(imagesAttached(request)).toEqual([{ imageUrl: 'data:image/png;base64,AAAA' }]);
  });

  it('reads the legacy {content} output shape and strings', () => {
    expect(contentText({ content: 'old', success: true })).toBe('old');
    expect(contentText('plain')).toBe('plain');
    expect(contentText(7)).toBe('');
  });

  it('never throws on arbitrary JSON bodies and returns empty results for non-requests', () => {
    expect(toolsOffered({ body: undefined })).toEqual([]);
    expect(userMessages({ body: [1, 2] })).toEqual([]);
    const anyBody = fc.oneof(
      fc.jsonValue(),
      fc.record({ tools: fc.array(fc.jsonValue()), input: fc.array(fc.jsonValue()) }),
      fc.record({
        input: fc.array(
          fc.record({ type: fc.constantFrom('message', 'function_call_output', 'function_call'), role: fc.jsonValue(), content: fc.jsonValue(), output: fc.jsonValue(), call_id: fc.jsonValue() }),
        ),
      }),
    );
    fc.assert(
      fc.property(anyBody, (body) => {
        for (const query of [toolsOffered, inputItems, functionCallOutputs, historyCalls, userMessages, assistantMessages, imagesAttached, skillsAvailable]) {
          expect(Array.isArray(query({ body }))).toBe(true);
        }
      }),
    );
  });

  it('keeps history order: outputs come back in the order they were sent', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{1,8}$/), { maxLength: 8 }), (callIds) => {
        const body = { input: callIds.map((id) => ({ type: 'function_call_output', call_id: id, output: `out ${id}` })) };
        expect(functionCallOutputs({ body }).map((o) => o.callId)).toEqual(callIds);
        expect(functionCallOutputs({ body }).map((o) => o.text)).toEqual(callIds.map((id) => `out ${id}`));
      }),
    );
  });

  it('lists the skills of the latest skills instructions (Codex sends a new block when the set changes)', () => {
    const skills = (lines: string[]): unknown => ({
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: ['<skills_instructions>', '## Skills', 'A skill is …', '### Skill roots', '- `r0` = `/home/x/skills`', '### Available skills', ...lines, '</skills_instructions>'].join('\n') }],
    });
    const body = {
      input: [
        skills(['- imagegen: Generate images (file: r0/imagegen/SKILL.md)']),
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
        skills(['- imagegen: Generate images (file: r0/imagegen/SKILL.md)', '- demo-plugin:greet: Greets warmly: always (file: r1/demo-plugin/0.1.0/skills/greet/SKILL.md)']),
      ],
    };
    expect(skillsAvailable({ body })).toEqual([
      { name: 'imagegen', description: 'Generate images', file: 'r0/imagegen/SKILL.md' },
      { name: 'demo-plugin:greet', description: 'Greets warmly: always', file: 'r1/demo-plugin/0.1.0/skills/greet/SKILL.md' },
    ]);
    expect(skillsAvailable({ body: { input: body.input.slice(0, 2) } }).map((skill) => skill.name)).toEqual(['imagegen']);
    expect(skillsAvailable({ body: { input: [] } })).toEqual([]);
  });
});
