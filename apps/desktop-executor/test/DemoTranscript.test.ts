import { describe, expect, it } from 'vitest';
import type { ThreadItem, Turn } from '@wework/codex-protocol';
import { itemLine, turnLine, userLine } from '../src/DemoTranscript.js';

describe('Transcript', () => {
  it('shows user and agent messages', () => {
    expect(userLine('hi')).toBe('› you: hi');
    const item = { type: 'agentMessage', id: 'm1', text: 'hello', moderation: null, phase: null, memoryCitation: null, delivery: null, questions: null } as ThreadItem;
    expect(itemLine(item)).toBe('‹ codex: hello');
  });

  it('hides items a person does not need', () => {
    expect(itemLine({ type: 'reasoning', id: 'r', summary: [], content: [] } as ThreadItem)).toBeUndefined();
  });

  it('closes a failed turn with its error', () => {
    const turn = { id: 't', status: 'failed', error: { message: 'model unavailable', codexErrorInfo: null, additionalDetails: null }, durationMs: 12 } as unknown as Turn;
    expect(turnLine(turn)).toBe('✗ turn failed in 12 ms: model unavailable');
  });
});
