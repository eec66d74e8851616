/**
 * The example of README.md's "Diagnosing plugin forms" section, kept compiling and passing.
 */
import { expect, test } from 'vitest';
import { diagnoseForms, emptyFormsEvidence, type FormEvidence } from '../src/index.js';

test('README forms diagnosis example', () => {
  const declinedForm: FormEvidence = {
    server: 'forms', tool: 'deploy', message: 'Choose a deployment target', mode: 'form', sent: true, hasProperties: true, duringToolCall: true,
    reachedClient: false, schemaSupported: null, clientAnswer: 'none', pluginResult: 'decline', pluginError: null, toolContinued: true,
  };

  // --- README example begins ---
  // A plugin got "decline" and no card appeared: why?
  const findings = diagnoseForms({ ...emptyFormsEvidence, approvalPolicy: 'never', forms: [declinedForm] });
  // [{ _tag: 'PolicyNeverAutoDeclined', action: 'Use the granular approval policy that only enables MCP elicitations, ...' }]
  // --- README example ends ---

  expect(findings.map((f) => f._tag)).toEqual(['PolicyNeverAutoDeclined']);
  expect(findings[0]?.action).toMatch(/^Use the granular approval policy that only enables MCP elicitations/);
});
