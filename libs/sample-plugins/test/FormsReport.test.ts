import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatFormsReport, parseFormsReport, type ElicitationOutcome, type FormsReport } from '../src/forms/FormsReport.js';

const content = fc
  .json({ depthSize: 'small' })
  .map((text) => JSON.parse(text) as unknown)
  .filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));

const elicitation: fc.Arbitrary<ElicitationOutcome> = fc.oneof(
  fc.constant<ElicitationOutcome>({ action: 'accept' }),
  content.map((c): ElicitationOutcome => ({ action: 'accept', content: c })),
  fc.constant<ElicitationOutcome>({ action: 'decline' }),
  fc.constant<ElicitationOutcome>({ action: 'cancel' }),
  fc.constant<ElicitationOutcome>({ action: 'unsupported' }),
  fc.string().map((message): ElicitationOutcome => ({ action: 'error', message })),
);

const report: fc.Arbitrary<FormsReport> = fc.record({ elicitation, outcome: fc.string() });

describe('forms report', () => {
  it('states exactly what came back', () => {
    expect(formatFormsReport({ elicitation: { action: 'accept', content: { target: 'production' } }, outcome: 'deployed web to production' })).toBe(
      'elicitation: accept {"target":"production"}\noutcome: deployed web to production',
    );
    expect(formatFormsReport({ elicitation: { action: 'cancel' }, outcome: 'nothing was deployed (the user cancelled)' })).toBe(
      'elicitation: cancel\noutcome: nothing was deployed (the user cancelled)',
    );
    expect(formatFormsReport({ elicitation: { action: 'error', message: 'timed out\nafter 60s' }, outcome: 'x' })).toBe(
      'elicitation: error "timed out\\nafter 60s"\noutcome: x',
    );
  });

  it('round trips: parse(format(report)) = report', () => {
    fc.assert(
      fc.property(report, (r) => {
        expect(parseFormsReport(formatFormsReport(r))).toEqual({ ok: true, report: r });
      }),
    );
  });

  it('never throws on arbitrary text and rejects non-reports', () => {
    fc.assert(fc.property(fc.string(), (text) => void parseFormsReport(text)));
    for (const text of ['hello', 'elicitation: accept', 'elicitation: maybe\noutcome: x', 'elicitation: accept [1]\noutcome: x', 'elicitation: decline extra\noutcome: x']) {
      expect(parseFormsReport(text)).toMatchObject({ ok: false, error: { _tag: 'FormsReportParseError' } });
    }
  });
});
