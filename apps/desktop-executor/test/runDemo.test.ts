import { describe, expect, it } from 'vitest';
import { runDemo } from '../src/runDemo.js';

describe('the demo conversation against the real codex app-server', () => {
  it('calls the sample plugin and prints the scripted model final answer', async () => {
    const lines: string[] = [];
    const result = await runDemo({ print: (line) => lines.push(line) });
    expect(result, lines.join('\n')).toMatchObject({ _tag: 'TurnFinished', turn: { status: 'completed' } });
    const transcript = lines.join('\n');
    expect(transcript).toContain('› you: Check that the sample plugin answers.');
    expect(transcript).toMatch(/⚙ forms\.echo \{"text":"Hello from the sample plugin"\} → Hello from the sample plugin/);
    expect(transcript).toContain('‹ codex: The sample plugin answered: "Hello from the sample plugin".');
    expect(transcript).toMatch(/✓ turn completed/);
  });
});
