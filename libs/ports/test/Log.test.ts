import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLogFields, logFormatOf, type LogEntry } from '../src/index.js';
import { formatLogLine } from '../src/Log.js';
import { streamLog } from '../src/node/index.js';
import { manualClock } from '../src/testing.js';

const entry = (fields: Record<string, unknown>, level?: LogEntry['level']): LogEntry => ({ event: 'plugin sync failed', fields, ...(level === undefined ? {} : { level }) });

describe('log lines', () => {
  it('text: time, level, event and key=value with JSON values', () => {
    expect(formatLogLine(entry({ plugin: 'notes@team', attempts: 2 }), Date.UTC(2026, 11, 2, 7, 30), 'text')).toBe(
      '2026-12-02T07:30:00.000Z info plugin sync failed plugin="notes@team" attempts=2',
    );
    expect(formatLogLine(entry({}, 'warn'), 0, 'text')).toBe('1970-01-01T00:00:00.000Z warn plugin sync failed');
  });

  it('json: one object per line that parses back to the entry, whatever the fields hold', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.constantFrom<LogEntry['level']>('debug', 'info', 'warn', 'error'), fc.string(), fc.integer({ min: 0, max: 4_102_444_800_000 }), (fields, level, event, at) => {
        const line = formatLogLine({ event, fields, ...(level === undefined ? {} : { level }) }, at, 'json');
        expect(line).not.toContain('\n');
        expect(JSON.parse(line)).toEqual({ time: new Date(at).toISOString(), level, event, fields: JSON.parse(JSON.stringify(fields)) });
      }),
    );
  });

  it('never throws on values JSON cannot hold', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(formatLogFields(entry({ big: 10n, cycle }))).toBe('plugin sync failed big="10" cycle="[unprintable object]"');
    expect(formatLogLine(entry({ nothing: undefined }), Number.NaN, 'text')).toBe('unknown-time info plugin sync failed nothing=null');
  });

  it('reads a format name', () => {
    expect([logFormatOf('text'), logFormatOf('json'), logFormatOf('JSON'), logFormatOf('')]).toEqual(['text', 'json', null, null]);
  });
});

describe('streamLog', () => {
  it('writes one line per entry with the clock’s time', () => {
    const output = new PassThrough();
    const chunks: string[] = [];
    output.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
    const clock = manualClock(Date.UTC(2026, 11, 2));
    const log = streamLog(output, { format: 'json', clock });
    log(entry({ a: 1 }));
    clock.advance(1_000);
    log(entry({ a: 2 }, 'error'));
    expect(chunks.join('').split('\n')).toEqual([
      '{"time":"2026-12-02T00:00:00.000Z","level":"info","event":"plugin sync failed","fields":{"a":1}}',
      '{"time":"2026-12-02T00:00:01.000Z","level":"error","event":"plugin sync failed","fields":{"a":2}}',
      '',
    ]);
  });
});
