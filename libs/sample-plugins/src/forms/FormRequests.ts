/**
 * The forms the forms plugin asks for: the examples of the plugin interactive forms spec,
 * as `elicitation/create` form-mode params (`mode`, `message`, `requestedSchema`), plus the
 * decoders of the content each form answers with.
 *
 * Everything here is plain data and pure functions.
 */
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** Params of a form-mode `elicitation/create` request (the MCP SDK's type, without `_meta`/`task`). */
export type FormRequest = Pick<ElicitRequestFormParams, 'message' | 'requestedSchema'> & { readonly mode: 'form' };

/** Single choice with `oneOf` (the spec's "Trigger" example): how the plugin should continue. */
export const strategyForm: FormRequest = {
  mode: 'form',
  message: 'Choose how to continue',
  requestedSchema: {
    type: 'object',
    properties: {
      strategy: {
        type: 'string',
        title: 'Strategy',
        description: 'How should the plugin continue?',
        oneOf: [
          { const: 'fast', title: 'Fast' },
          { const: 'safe', title: 'Safe' },
          { const: 'manual', title: 'Ask me before each step' },
        ],
      },
    },
    required: ['strategy'],
  },
};

/** Single choice (the spec's "Single Choice" example): the deployment target. */
export const deploymentTargetForm: FormRequest = {
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
};

/** Boolean confirmation (the spec's "Boolean Confirmation" example). */
export const clearCacheForm: FormRequest = {
  mode: 'form',
  message: 'Continue deleting the cache?',
  requestedSchema: {
    type: 'object',
    properties: {
      confirm: {
        type: 'boolean',
        title: 'Confirm deletion',
        description: 'This operation clears the current workspace cache.',
      },
    },
    required: ['confirm'],
  },
};

/** Text input (the spec's "Text Input" example). */
export const releaseNoteForm: FormRequest = {
  mode: 'form',
  message: 'Enter release notes',
  requestedSchema: {
    type: 'object',
    properties: {
      releaseNote: {
        type: 'string',
        title: 'Release note',
        description: 'This text will be written to the release record.',
      },
    },
    required: ['releaseNote'],
  },
};

/** Custom option as two fields (the spec's "Custom Option" example). */
export const customStrategyForm: FormRequest = {
  mode: 'form',
  message: 'Choose how to handle this',
  requestedSchema: {
    type: 'object',
    properties: {
      strategy: {
        type: 'string',
        title: 'Strategy',
        description: 'Choose a handling strategy.',
        oneOf: [
          { const: 'fast', title: 'Fast' },
          { const: 'safe', title: 'Safe' },
          { const: 'custom', title: 'Custom' },
        ],
      },
      customStrategy: {
        type: 'string',
        title: 'Custom strategy',
        description: 'If you chose Custom above, describe the requested handling.',
      },
    },
    required: ['strategy'],
  },
};

/**
 * Several choices with limits: the regions to roll out to, at least one and at most three of four
 * (`type: "array"` with titled `items.anyOf`, `minItems`, `maxItems`). Codex forwards the limits as
 * 64-bit integers, which its protocol codec decodes to `bigint`s.
 */
export const rolloutRegionsForm: FormRequest = {
  mode: 'form',
  message: 'Choose where to roll out',
  requestedSchema: {
    type: 'object',
    properties: {
      regions: {
        type: 'array',
        title: 'Regions',
        description: 'Pick one to three regions.',
        minItems: 1,
        maxItems: 3,
        items: {
          anyOf: [
            { const: 'eu', title: 'EU' },
            { const: 'us', title: 'US' },
            { const: 'ap', title: 'Asia' },
            { const: 'sa', title: 'South America' },
          ],
        },
      },
    },
    required: ['regions'],
  },
};

/** Content of an accepted {@link strategyForm}. */
export const StrategyAnswer = z.object({ strategy: z.enum(['fast', 'safe', 'manual']) });
/** Content of an accepted {@link deploymentTargetForm}. */
export const DeploymentTargetAnswer = z.object({ target: z.enum(['staging', 'production']) });
/** Content of an accepted {@link clearCacheForm}. */
export const ClearCacheAnswer = z.object({ confirm: z.boolean() });
/** Content of an accepted {@link releaseNoteForm}. */
export const ReleaseNoteAnswer = z.object({ releaseNote: z.string() });
/** Content of an accepted {@link rolloutRegionsForm}: one to three regions. */
export const RolloutRegionsAnswer = z.object({ regions: z.array(z.enum(['eu', 'us', 'ap', 'sa'])).min(1).max(3) });
/** Content of an accepted {@link customStrategyForm}. */
export const CustomStrategyAnswer = z.object({ strategy: z.enum(['fast', 'safe', 'custom']), customStrategy: z.string().optional() });

/** The handling a custom-option answer resolves to, or why it is invalid. */
export type ResolvedStrategy = { readonly ok: true; readonly handling: string } | { readonly ok: false; readonly reason: string };

/**
 * Applies the spec's rule for the custom option: when `strategy` is `custom`, `customStrategy`
 * must be non-empty; otherwise `customStrategy` is ignored.
 */
export function resolveCustomStrategy(answer: z.infer<typeof CustomStrategyAnswer>): ResolvedStrategy {
  if (answer.strategy !== 'custom') return { ok: true, handling: answer.strategy };
  const custom = answer.customStrategy?.trim() ?? '';
  return custom === '' ? { ok: false, reason: 'strategy "custom" needs a non-empty customStrategy' } : { ok: true, handling: `custom: ${custom}` };
}

/**
 * A multi-question form: single choice (`channel`, `oneOf`), boolean (`notify`), integer
 * (`replicas`, 1–9) and text (`note`). `note` is optional; the others are required.
 */
export const releaseConfigurationForm: FormRequest = {
  mode: 'form',
  message: 'Configure the release',
  requestedSchema: {
    type: 'object',
    properties: {
      channel: {
        type: 'string',
        title: 'Channel',
        description: 'Which release channel to publish to.',
        oneOf: [
          { const: 'stable', title: 'Stable' },
          { const: 'beta', title: 'Beta' },
          { const: 'nightly', title: 'Nightly' },
        ],
      },
      notify: { type: 'boolean', title: 'Notify subscribers', description: 'Send the release announcement to subscribers.' },
      replicas: { type: 'integer', title: 'Replicas', description: 'How many replicas to run (1–9).', minimum: 1, maximum: 9 },
      note: { type: 'string', title: 'Release note', description: 'Optional text for the release record.' },
    },
    required: ['channel', 'notify', 'replicas'],
  },
};

/** Content of an accepted {@link releaseConfigurationForm}. */
export const ReleaseConfigurationAnswer = z.object({
  channel: z.enum(['stable', 'beta', 'nightly']),
  notify: z.boolean(),
  replicas: z.number().int().min(1).max(9),
  note: z.string().optional(),
});

/**
 * Scale a service: a single choice (`service`) and an optional integer (`replicas`, 1–9). The forms spec
 * omits a number that does not parse, so a typo in `replicas` reaches the plugin as an accept without it
 * (the plugin keeps the current count).
 */
export const scaleServiceForm: FormRequest = {
  mode: 'form',
  message: 'Scale the service',
  requestedSchema: {
    type: 'object',
    properties: {
      service: {
        type: 'string',
        title: 'Service',
        description: 'Which service to scale.',
        oneOf: [
          { const: 'web', title: 'Web' },
          { const: 'worker', title: 'Worker' },
        ],
      },
      replicas: { type: 'integer', title: 'Replicas', description: 'How many replicas to run (1–9); leave empty to keep the current count.', minimum: 1, maximum: 9 },
    },
    required: ['service'],
  },
};

/** Content of an accepted {@link scaleServiceForm}. */
export const ScaleServiceAnswer = z.object({
  service: z.enum(['web', 'worker']),
  replicas: z.number().int().min(1).max(9).optional(),
});

/**
 * The JavaScript type of each value of an answer, in the order received: `typeof`, except `null`
 * and `array`, and `integer` for a whole number.
 *
 * @example
 * ```ts
 * describeContentTypes({ replicas: 3, notify: true, note: '3' }); // { replicas: 'integer', notify: 'boolean', note: 'string' }
 * ```
 */
export function describeContentTypes(content: Readonly<Record<string, unknown>>): Record<string, string> {
  const types: Record<string, string> = {};
  for (const [key, value] of Object.entries(content)) {
    const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
    Object.defineProperty(types, key, { value: type, enumerable: true, writable: true, configurable: true });
  }
  return types;
}
