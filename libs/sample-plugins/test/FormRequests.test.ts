import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  clearCacheForm,
  customStrategyForm,
  deploymentTargetForm,
  describeContentTypes,
  releaseNoteForm,
  resolveCustomStrategy,
  strategyForm,
} from '../src/forms/FormRequests.js';

describe('form requests', () => {
  it('are the spec examples, verbatim', () => {
    expect(deploymentTargetForm).toEqual({
      mode: 'form',
      message: 'Choose a deployment target',
      requestedSchema: {
        type: 'object',
        properties: {
          target: {
            type: 'string',
            title: 'Deployment target',
            description: 'Select the target environment for this deployment.',
            oneOf: [
              { const: 'staging', title: 'Staging' },
              { const: 'production', title: 'Production' },
            ],
          },
        },
        required: ['target'],
      },
    });
    expect(clearCacheForm.requestedSchema).toEqual({
      type: 'object',
      properties: { confirm: { type: 'boolean', title: 'Confirm deletion', description: 'This operation clears the current workspace cache.' } },
      required: ['confirm'],
    });
    expect(releaseNoteForm.requestedSchema.properties).toEqual({
      releaseNote: { type: 'string', title: 'Release note', description: 'This text will be written to the release record.' },
    });
    expect(Object.keys(customStrategyForm.requestedSchema.properties)).toEqual(['strategy', 'customStrategy']);
    expect(customStrategyForm.requestedSchema.required).toEqual(['strategy']);
    expect(strategyForm.message).toBe('Choose how to continue');
  });

  it('require a non-empty custom strategy only when "custom" is chosen', () => {
    expect(resolveCustomStrategy({ strategy: 'fast', customStrategy: 'ignored' })).toEqual({ ok: true, handling: 'fast' });
    expect(resolveCustomStrategy({ strategy: 'custom', customStrategy: '  Inspect the diff first ' })).toEqual({ ok: true, handling: 'custom: Inspect the diff first' });
    expect(resolveCustomStrategy({ strategy: 'custom', customStrategy: '   ' })).toMatchObject({ ok: false });
    expect(resolveCustomStrategy({ strategy: 'custom' })).toMatchObject({ ok: false });
  });
});

describe('describeContentTypes', () => {
  it('names the JavaScript type of each received value, integers apart', () => {
    expect(describeContentTypes({ channel: 'beta', notify: true, replicas: 3, ratio: 0.5, note: '3', tags: ['a'], none: null, nested: {} })).toEqual({
      channel: 'string',
      notify: 'boolean',
      replicas: 'integer',
      ratio: 'number',
      note: 'string',
      tags: 'array',
      none: 'null',
      nested: 'object',
    });
  });

  it('keeps every key in the received order, on any JSON object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (content) => {
        expect(Object.keys(describeContentTypes(content))).toEqual(Object.keys(content));
      }),
    );
  });
});
