/**
 * Every test file of the harness is also a conformance test: after its tests, every host it closed must
 * have kept to the host protocol's JSON Schema both ways (each message valid against its definition;
 * params the executor refused as invalid refused by the schema too). With `WEWORK_CONFORMANCE_SUMMARY`
 * set to a file, the counts are appended to it, one JSON line per test file.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { takeClosedHostConformance } from '../../src/host/SchemaConformance.js';

afterAll(() => {
  const verdicts = takeClosedHostConformance();
  const summary = process.env['WEWORK_CONFORMANCE_SUMMARY'];
  if (summary !== undefined && verdicts.length > 0) {
    const checked = verdicts.reduce((sum, verdict) => sum + verdict.checked, 0);
    const issues = verdicts.reduce((sum, verdict) => sum + verdict.issues.length, 0);
    appendFileSync(summary, `${JSON.stringify({ file: expect.getState().testPath ?? null, hosts: verdicts.length, checked, issues })}\n`);
  }
  expect(verdicts.flatMap((verdict) => verdict.issues)).toEqual([]);
});
