/**
 * The messages a chat host turns into cards (plugin forms, user-input questions, approvals),
 * with more runs than the sweep over all codecs, and with the order of what the user sees.
 */
import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type * as t from 'io-ts';
import { describe, expect, test } from 'vitest';
import * as C from '../src/codecs/codecs.js';
import {
  commandExecutionRequestApprovalParamsArbitrary,
  fileChangeRequestApprovalParamsArbitrary,
  formElicitationRequestParamsArbitrary,
  mcpServerElicitationRequestParamsArbitrary,
  mcpServerElicitationRequestResponseArbitrary,
  permissionsRequestApprovalParamsArbitrary,
  toolRequestUserInputParamsArbitrary,
  toolRequestUserInputResponseArbitrary,
} from '../src/testing.js';
import { corrupted, expectRight, throughJson, wireJson } from './lawsSupport.js';

const numRuns = 200;

const keyMessages: Array<[string, t.Mixed, fc.Arbitrary<unknown>]> = [
  ['McpServerElicitationRequestParams', C.McpServerElicitationRequestParams, mcpServerElicitationRequestParamsArbitrary],
  ['McpServerElicitationRequestParams (form)', C.McpServerElicitationRequestParams, formElicitationRequestParamsArbitrary],
  ['McpServerElicitationRequestResponse', C.McpServerElicitationRequestResponse, mcpServerElicitationRequestResponseArbitrary],
  ['ToolRequestUserInputParams', C.ToolRequestUserInputParams, toolRequestUserInputParamsArbitrary],
  ['ToolRequestUserInputResponse', C.ToolRequestUserInputResponse, toolRequestUserInputResponseArbitrary],
  ['CommandExecutionRequestApprovalParams', C.CommandExecutionRequestApprovalParams, commandExecutionRequestApprovalParamsArbitrary],
  ['FileChangeRequestApprovalParams', C.FileChangeRequestApprovalParams, fileChangeRequestApprovalParamsArbitrary],
  ['PermissionsRequestApprovalParams', C.PermissionsRequestApprovalParams, permissionsRequestApprovalParamsArbitrary],
];

describe.each(keyMessages)('%s', (_name, codec, arbitrary) => {
  test('decode(encode(a)) = a through JSON', () => {
    fc.assert(
      fc.property(arbitrary, (a) => {
        expect(expectRight(codec.decode(throughJson(codec.encode(a))))).toEqual(a);
      }),
      { numRuns },
    );
  });

  test('decode never throws on arbitrary or corrupted JSON', () => {
    fc.assert(fc.property(fc.oneof(wireJson, corrupted(codec, arbitrary)), (input) => void codec.decode(input)), { numRuns });
  });
});

describe('order is preserved', () => {
  test('questions and options of a user-input request keep their order', () => {
    fc.assert(
      fc.property(toolRequestUserInputParamsArbitrary, (params) => {
        const decoded = expectRight(C.ToolRequestUserInputParams.decode(throughJson(C.ToolRequestUserInputParams.encode(params))));
        expect(decoded.questions.map((q) => q.id)).toEqual(params.questions.map((q) => q.id));
        expect(decoded.questions.map((q) => q.options?.map((o) => o.label))).toEqual(params.questions.map((q) => q.options?.map((o) => o.label)));
      }),
      { numRuns },
    );
  });

  test('the properties of a form schema keep the order they arrive in', () => {
    fc.assert(
      fc.property(formElicitationRequestParamsArbitrary, (params) => {
        const wire = throughJson(C.McpServerElicitationRequestParams.encode(params));
        const decoded = expectRight(C.McpServerElicitationRequestParams.decode(wire));
        if (decoded.mode !== 'form') throw new Error('expected a form');
        expect(Object.keys(decoded.requestedSchema.properties)).toEqual(Object.keys(params.requestedSchema.properties));
      }),
      { numRuns },
    );
  });

  test('answers keep their order', () => {
    fc.assert(
      fc.property(toolRequestUserInputResponseArbitrary, (response) => {
        const decoded = expectRight(C.ToolRequestUserInputResponse.decode(throughJson(C.ToolRequestUserInputResponse.encode(response))));
        expect(Object.keys(decoded.answers)).toEqual(Object.keys(response.answers));
      }),
      { numRuns },
    );
  });
});

test('a form elicitation without properties is rejected (Codex never forwards one)', () => {
  const params = { threadId: 't', turnId: null, serverName: 's', environmentId: null, mode: 'form', _meta: null, message: 'm', requestedSchema: { type: 'object' } };
  expect(E.isLeft(C.McpServerElicitationRequestParams.decode(params))).toBe(true);
});
