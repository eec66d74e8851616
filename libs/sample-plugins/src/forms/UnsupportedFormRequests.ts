/**
 * Forms the plugin interactive forms spec says not to send, kept to show what happens to them on
 * the way: a single choice with number values, and a schema without `properties`. They do not fit
 * the MCP SDK's form types (which is the point), so they have their own type.
 *
 * Measured on Codex 0.171.0: Codex drops non-string `oneOf`/`enum` choices before forwarding (the
 * client sees a bare integer field) and answers a schema without `properties` itself with
 * `-32602 "data did not match any variant of untagged enum ElicitRequestParamsWire"`, so that form
 * never reaches the client. The MCP SDK's client (1.32.2) behaves alike: it strips the choices, and
 * refuses a schema without `properties` with `-32603` (its params validation error). The plugin's
 * SDK still validates an accepted answer against the schema it sent.
 *
 * Everything here is plain data.
 */
import { z } from 'zod';

/** A form-mode `elicitation/create` request whose schema is outside what the spec supports. */
export interface UnsupportedFormRequest {
  readonly mode: 'form';
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

/** A single choice whose values are numbers (`oneOf` with number `const`s): the spec supports string values only. */
export const numericChoicesForm: UnsupportedFormRequest = {
  mode: 'form',
  message: 'How many replicas?',
  requestedSchema: {
    type: 'object',
    properties: {
      replicas: {
        type: 'integer',
        title: 'Replicas',
        description: 'Pick a replica count.',
        oneOf: [
          { const: 1, title: 'One' },
          { const: 3, title: 'Three' },
          { const: 5, title: 'Five' },
        ],
      },
    },
    required: ['replicas'],
  },
};

/** A schema without `properties`: the spec says such forms are declined. */
export const formWithoutProperties: UnsupportedFormRequest = {
  mode: 'form',
  message: 'Describe the target',
  requestedSchema: { type: 'object' },
};

/** Content of an accepted {@link numericChoicesForm}. */
export const NumericChoiceAnswer = z.object({ replicas: z.union([z.literal(1), z.literal(3), z.literal(5)]) });
