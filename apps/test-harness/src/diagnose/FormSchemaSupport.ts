/**
 * Whether a forwarded `mcpServer/elicitation/request` can be shown as a Wework form, by the rules of
 * the plugin interactive forms spec ("Schema Mapping", "Constraints"): mode `form`; a
 * `requestedSchema.properties` object with at least one property; each property a string (plain,
 * string `enum`, or `oneOf` with string `const`s), a number or integer without choices, a boolean, or
 * an array of string choices. Anything else is declined by Wework's executor.
 *
 * Every function here is pure.
 */

/** Supported, or the reasons it is not. */
export type SchemaSupport = { readonly supported: true } | { readonly supported: false; readonly reasons: ReadonlyArray<string> };

const isRecord = (u: unknown): u is Readonly<Record<string, unknown>> => typeof u === 'object' && u !== null && !Array.isArray(u);
const allStrings = (u: unknown): boolean => Array.isArray(u) && u.every((v) => typeof v === 'string');
const allStringConsts = (u: unknown): boolean => Array.isArray(u) && u.every((option) => isRecord(option) && typeof option['const'] === 'string');

function propertyProblem(key: string, schema: unknown): string | undefined {
  if (!isRecord(schema)) return `${key}: not a schema object`;
  const { type } = schema;
  const hasChoices = schema['enum'] !== undefined || schema['oneOf'] !== undefined;
  switch (type) {
    case 'string':
      if (schema['enum'] !== undefined && !allStrings(schema['enum'])) return `${key}: enum values must be strings`;
      if (schema['oneOf'] !== undefined && !allStringConsts(schema['oneOf'])) return `${key}: oneOf const values must be strings`;
      return undefined;
    case 'number':
    case 'integer':
      return hasChoices ? `${key}: choices on a ${type} field (only string values are supported)` : undefined;
    case 'boolean':
      return undefined;
    case 'array': {
      const items = schema['items'];
      return isRecord(items) && (allStrings(items['enum']) || allStringConsts(items['anyOf'])) ? undefined : `${key}: array items must be string choices`;
    }
    default:
      return `${key}: unsupported type ${JSON.stringify(type) ?? 'undefined'}`;
  }
}

/**
 * Checks the params of a forwarded elicitation request.
 *
 * @example
 * ```ts
 * formSchemaSupport({ mode: 'form', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } }); // { supported: true }
 * formSchemaSupport({ mode: 'url', url: 'https://example.com' }); // { supported: false, reasons: ['mode "url" is not a form'] }
 * ```
 */
export function formSchemaSupport(params: unknown): SchemaSupport {
  if (!isRecord(params)) return { supported: false, reasons: ['the request has no params'] };
  const mode = params['mode'];
  if (mode !== 'form') return { supported: false, reasons: [`mode ${JSON.stringify(mode) ?? 'undefined'} is not a form`] };
  const schema = params['requestedSchema'];
  const properties = isRecord(schema) ? schema['properties'] : undefined;
  if (!isRecord(properties)) return { supported: false, reasons: ['requestedSchema.properties is missing'] };
  const entries = Object.entries(properties);
  if (entries.length === 0) return { supported: false, reasons: ['requestedSchema.properties is empty: nothing to ask'] };
  const reasons = entries.flatMap(([key, property]) => {
    const problem = propertyProblem(key, property);
    return problem === undefined ? [] : [problem];
  });
  return reasons.length === 0 ? { supported: true } : { supported: false, reasons };
}
