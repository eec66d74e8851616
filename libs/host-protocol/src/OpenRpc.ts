/**
 * The host protocol as an OpenRPC 1.3 document, from the same definitions as {@link hostProtocolSchema}
 * (under `components.schemas`):
 *
 * - every method is listed with `x-direction`: `hostToExecutor` for the host's requests,
 *   `executorToHost` for `card/show` and the notifications;
 * - a notification has no `result` (OpenRPC's notification) and `x-notification: true`;
 * - params are `by-name`: one content descriptor per property of the params object. When the params
 *   are a union of shapes (`skills/setEnabled` takes `{ path, enabled }` or `{ name, enabled }`,
 *   `plugins/install` a cloud package or a marketplace plugin), the list holds every property of every
 *   shape, `required` only when each shape requires it; the exact rule is `x-paramsSchema`, which every
 *   method has (a `$ref` to its `<Method>Params`);
 * - `components.errors` holds every code of `HostErrorCode` (message: its name). Any request of the host
 *   may be answered with any of them, so methods do not list them: OpenRPC assumes the codes from
 *   -32768 to -32000, where all of them are, of every method. The `data` of an error reply is
 *   `x-errorData` (`HostErrorData`), as OpenRPC's error object holds no schema.
 *
 * Every function here is pure: the codecs in, plain data out.
 */
import * as E from 'fp-ts/lib/Either.js';
import { ExecutorRequests } from './Cards.js';
import { HostErrorCode } from './ErrorCodes.js';
import type { JsonSchema, JsonSchemaError } from './JsonSchema.js';
import { HostNotifications } from './Notifications.js';
import { HOST_PROTOCOL_SCHEMA_ID, HOST_PROTOCOL_VERSION, hostProtocolSchema, messageSchemaKey } from './ProtocolSchema.js';
import { HostRequests } from './Requests.js';

/** The OpenRPC version of the document. */
export const OPENRPC_VERSION = '1.3.2';

/** An OpenRPC content descriptor: a named schema. */
export interface OpenRpcContentDescriptor {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly required?: boolean;
}

/** An OpenRPC method of the host protocol, with its `x-` extensions. */
export interface OpenRpcMethod {
  readonly name: string;
  readonly paramStructure: 'by-name';
  readonly params: ReadonlyArray<OpenRpcContentDescriptor>;
  readonly result?: OpenRpcContentDescriptor;
  /** Who sends it. */
  readonly 'x-direction': 'hostToExecutor' | 'executorToHost';
  /** Set on notifications (no response). */
  readonly 'x-notification'?: true;
  /** The exact schema of the params object. */
  readonly 'x-paramsSchema': { readonly $ref: string };
}

/** The OpenRPC document of the host protocol. */
export interface OpenRpcDocument {
  readonly openrpc: string;
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly methods: ReadonlyArray<OpenRpcMethod>;
  readonly components: {
    readonly schemas: { readonly [key: string]: JsonSchema };
    readonly errors: { readonly [name: string]: { readonly code: number; readonly message: string } };
  };
  /** The `$id` of the JSON Schema document the schemas come from. */
  readonly 'x-jsonSchema': string;
  /** The schema of every error reply's `data`. */
  readonly 'x-errorData': { readonly $ref: string };
}

const SCHEMAS = '#/components/schemas/';

/** `value` with every `#/$defs/` reference pointing into `components.schemas` instead. */
const rebase = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(rebase);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const rebased = key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/') ? `${SCHEMAS}${inner.slice('#/$defs/'.length)}` : rebase(inner);
    Object.defineProperty(out, key, { value: rebased, enumerable: true, writable: true, configurable: true });
  }
  return out;
};

const schemaRef = (key: string): { readonly $ref: string } => ({ $ref: `${SCHEMAS}${key}` });

/** The properties of one shape of a params object: name, schema, required. */
type Fields = ReadonlyArray<{ readonly name: string; readonly schema: JsonSchema; readonly required: boolean }>;

const same = (a: JsonSchema, b: JsonSchema): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The properties of the params shapes `schema` allows, each shape a list (`anyOf` gives several, `allOf`
 * joins its parts); a property typed `false` (must be absent) is left out.
 */
const shapes = (schema: JsonSchema, schemas: { readonly [key: string]: JsonSchema }, depth = 0): ReadonlyArray<Fields> => {
  if (typeof schema !== 'object' || depth > 16) return [[]];
  if (schema.$ref !== undefined) return shapes(schemas[schema.$ref.slice(SCHEMAS.length)] ?? true, schemas, depth + 1);
  if (schema.anyOf !== undefined) return schema.anyOf.flatMap((member) => shapes(member, schemas, depth + 1));
  if (schema.allOf !== undefined) {
    return schema.allOf
      .map((part) => shapes(part, schemas, depth + 1))
      .reduce<ReadonlyArray<Fields>>((joined, part) => joined.flatMap((left) => part.map((right) => [...left, ...right])), [[]]);
  }
  const required = schema.required ?? [];
  return [
    Object.entries(schema.properties ?? {})
      .filter(([, property]) => property !== false)
      .map(([name, property]) => ({ name, schema: property, required: required.includes(name) })),
  ];
};

/** The by-name params of a params schema: every property of every shape, required when each shape requires it. */
const byName = (schema: JsonSchema, schemas: { readonly [key: string]: JsonSchema }): ReadonlyArray<OpenRpcContentDescriptor> => {
  const all = shapes(schema, schemas);
  const names = [...new Set(all.flatMap((fields) => fields.map((field) => field.name)))];
  return names.map((name) => {
    const found = all.map((fields) => fields.filter((field) => field.name === name));
    const schemasOf = found.flat().map((field) => field.schema).filter((s, i, list) => list.findIndex((other) => same(other, s)) === i);
    const required = found.every((fields) => fields.some((field) => field.required));
    const [only] = schemasOf;
    return { name, schema: schemasOf.length === 1 && only !== undefined ? only : { anyOf: schemasOf }, ...(required ? { required: true } : {}) };
  });
};

/**
 * The host protocol as an OpenRPC 1.3 document (see the module's description for how directions,
 * notifications, union params and errors appear); an error when a codec cannot be described exactly.
 * @example
 * ```ts
 * const doc = hostProtocolOpenRpc(); // right({ openrpc: '1.3.2', methods: [{ name: 'executor/info', … }, …], components })
 * ```
 */
export const hostProtocolOpenRpc = (): E.Either<ReadonlyArray<JsonSchemaError>, OpenRpcDocument> => {
  const schema = hostProtocolSchema();
  if (E.isLeft(schema)) return schema;
  const schemas = rebase(schema.right.$defs ?? {}) as { readonly [key: string]: JsonSchema };
  const method = (name: string, direction: OpenRpcMethod['x-direction'], withResult: boolean): OpenRpcMethod => {
    const paramsKey = messageSchemaKey(name, 'params');
    return {
      name,
      paramStructure: 'by-name',
      params: byName(schemaRef(paramsKey), schemas),
      ...(withResult ? { result: { name: 'result', schema: schemaRef(messageSchemaKey(name, 'result')) } } : { 'x-notification': true as const }),
      'x-direction': direction,
      'x-paramsSchema': schemaRef(paramsKey),
    };
  };
  return E.right({
    openrpc: OPENRPC_VERSION,
    info: { title: schema.right.title ?? 'The desktop executor host protocol', version: String(HOST_PROTOCOL_VERSION), description: schema.right.description ?? '' },
    methods: [
      ...Object.keys(HostRequests).map((name) => method(name, 'hostToExecutor', true)),
      ...Object.keys(ExecutorRequests).map((name) => method(name, 'executorToHost', true)),
      ...Object.keys(HostNotifications).map((name) => method(name, 'executorToHost', false)),
    ],
    components: {
      schemas,
      errors: Object.fromEntries(Object.entries(HostErrorCode).map(([name, code]) => [name, { code, message: name }])),
    },
    'x-jsonSchema': HOST_PROTOCOL_SCHEMA_ID,
    'x-errorData': schemaRef('HostErrorData'),
  });
};

/** The schema document and the OpenRPC document as the files committed under `schema/`. */
export interface HostProtocolSchemaFile {
  /** The path inside the package. */
  readonly path: 'schema/host-protocol.schema.json' | 'schema/host-protocol.openrpc.json';
  /** The text: two-space JSON and a final newline. */
  readonly text: string;
}

/**
 * The texts of the committed schema files, as `npm run schema:generate` writes them and the drift test
 * compares them.
 * @example
 * ```ts
 * hostProtocolSchemaFiles(); // right([{ path: 'schema/host-protocol.schema.json', text }, { path: 'schema/host-protocol.openrpc.json', text }])
 * ```
 */
export const hostProtocolSchemaFiles = (): E.Either<ReadonlyArray<JsonSchemaError>, ReadonlyArray<HostProtocolSchemaFile>> => {
  const schema = hostProtocolSchema();
  if (E.isLeft(schema)) return schema;
  const openRpc = hostProtocolOpenRpc();
  if (E.isLeft(openRpc)) return openRpc;
  const text = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  return E.right([
    { path: 'schema/host-protocol.schema.json', text: text(schema.right) },
    { path: 'schema/host-protocol.openrpc.json', text: text(openRpc.right) },
  ]);
};
