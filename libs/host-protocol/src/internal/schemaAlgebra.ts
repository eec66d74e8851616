/**
 * JSON Schema values and the few rewrites that keep a generated schema readable without changing what
 * it accepts: a union of plain types becomes one `type` list, a union of constants one `enum`, an
 * intersection of plain objects one object.
 *
 * Every function here is pure: schemas in, schemas out.
 */

/** A JSON value. */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json };

/** The types of JSON Schema's `type` keyword. */
export type JsonSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

/** A JSON Schema 2020-12: `true` (anything), `false` (nothing), or a schema object. */
export type JsonSchema = boolean | JsonSchemaObject;

/** A JSON Schema object, with the keywords the converter writes (others may be present in a document). */
export interface JsonSchemaObject {
  readonly $schema?: string;
  readonly $id?: string;
  readonly $ref?: string;
  readonly $defs?: { readonly [key: string]: JsonSchema };
  readonly $comment?: string;
  readonly title?: string;
  readonly description?: string;
  readonly type?: JsonSchemaType | ReadonlyArray<JsonSchemaType>;
  readonly const?: Json;
  readonly enum?: ReadonlyArray<Json>;
  readonly properties?: { readonly [key: string]: JsonSchema };
  readonly required?: ReadonlyArray<string>;
  readonly additionalProperties?: JsonSchema;
  readonly items?: JsonSchema;
  readonly prefixItems?: ReadonlyArray<JsonSchema>;
  readonly minItems?: number;
  readonly anyOf?: ReadonlyArray<JsonSchema>;
  readonly allOf?: ReadonlyArray<JsonSchema>;
  readonly not?: JsonSchema;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly [extension: `x-${string}`]: Json | undefined;
}

/** The schema that accepts every JSON value, written `{}`. */
export const ANY: JsonSchemaObject = {};

/** Whether `schema` accepts every value (`true` or `{}`). */
export const acceptsAll = (schema: JsonSchema): boolean => schema === true || (typeof schema === 'object' && Object.keys(schema).length === 0);

/** Whether an object schema holds only the given keywords. */
const only = (schema: JsonSchema, keywords: ReadonlyArray<string>): schema is JsonSchemaObject =>
  typeof schema === 'object' && Object.keys(schema).every((key) => keywords.includes(key));

const typesOf = (schema: JsonSchemaObject): ReadonlyArray<JsonSchemaType> => (schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type);

const unique = <A>(values: ReadonlyArray<A>): ReadonlyArray<A> => {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

const typeKeyword = (types: ReadonlyArray<JsonSchemaType>): JsonSchemaType | ReadonlyArray<JsonSchemaType> => (types.length === 1 && types[0] !== undefined ? types[0] : types);

/**
 * The union of `members` (what any of them accepts): `false` members dropped, nested unions flattened,
 * duplicates removed, plain types merged into one `type` list and constants into one `enum`.
 */
export const anyOf = (members: ReadonlyArray<JsonSchema>): JsonSchema => {
  const flat = unique(members.flatMap((member) => (only(member, ['anyOf']) && member.anyOf !== undefined ? member.anyOf : [member])).filter((member) => member !== false));
  if (flat.some(acceptsAll)) return ANY;
  const [first] = flat;
  if (first === undefined) return false;
  if (flat.length === 1) return first;
  if (flat.every((member) => only(member, ['type']) && member.type !== undefined)) {
    return { type: typeKeyword(unique(flat.flatMap((member) => typesOf(member as JsonSchemaObject)))) };
  }
  const constants = (member: JsonSchema): ReadonlyArray<Json> | null => {
    if (!only(member, ['type', 'const', 'enum'])) return null;
    if (member.const !== undefined) return [member.const];
    if (member.enum !== undefined) return member.enum;
    return member.type === 'null' ? [null] : null;
  };
  const values = flat.map(constants);
  if (values.every((value) => value !== null)) {
    return { type: typeKeyword(unique(flat.flatMap((member) => typesOf(member as JsonSchemaObject)))), enum: unique(values.flat() as ReadonlyArray<Json>) };
  }
  // Plain types among other members are one member: `{ type: [...] }`.
  const plain = flat.filter((member) => only(member, ['type']) && member.type !== undefined);
  if (plain.length < 2) return { anyOf: flat };
  const merged: JsonSchemaObject = { type: typeKeyword(unique(plain.flatMap((member) => typesOf(member as JsonSchemaObject)))) };
  return { anyOf: flat.flatMap((member) => (member === plain[0] ? [merged] : plain.includes(member) ? [] : [member])) };
};

/**
 * The intersection of `parts` (what all of them accept): parts that accept everything dropped, and plain
 * object schemas with distinct properties merged into one; otherwise `allOf`.
 */
export const allOf = (parts: ReadonlyArray<JsonSchema>): JsonSchema => {
  if (parts.some((part) => part === false)) return false;
  const kept = unique(parts.filter((part) => !acceptsAll(part)));
  const [first] = kept;
  if (first === undefined) return ANY;
  if (kept.length === 1) return first;
  const objects = kept.filter((part): part is JsonSchemaObject => only(part, ['type', 'properties', 'required']) && part.type === 'object');
  const names = objects.flatMap((part) => Object.keys(part.properties ?? {}));
  if (objects.length === kept.length && new Set(names).size === names.length) {
    return objectSchema(
      Object.assign({}, ...objects.map((part) => part.properties ?? {})) as Record<string, JsonSchema>,
      objects.flatMap((part) => part.required ?? []),
    );
  }
  return { allOf: kept };
};

/** An object schema with `properties` (left out when none) and `required` (left out when empty). */
export const objectSchema = (properties: { readonly [key: string]: JsonSchema }, required: ReadonlyArray<string>): JsonSchemaObject => ({
  type: 'object',
  ...(Object.keys(properties).length > 0 ? { properties } : {}),
  ...(required.length > 0 ? { required } : {}),
});

/** `schema` with more keywords: merged into it when it is a plain schema of `type`, else as `allOf`. */
export const refine = (schema: JsonSchema, keywords: JsonSchemaObject): JsonSchema => {
  if (only(schema, ['type']) && typeof schema.type === 'string') return { ...schema, ...keywords };
  return allOf([schema, keywords]);
};

/**
 * The `$ref` of a definition of `$defs`, by key (a JSON pointer: `~` and `/` escaped).
 * @example
 * ```ts
 * defRef('HostCard'); // '#/$defs/HostCard'
 * ```
 */
export const defRef = (key: string): string => `#/$defs/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
