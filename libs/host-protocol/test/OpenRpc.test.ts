/**
 * The OpenRPC document of the host protocol: valid for the OpenRPC 1.3 meta-schema, every method in its
 * direction, notifications without a result, union params flattened by name with the exact schema beside
 * them, the error codes, and the same definitions as the JSON Schema document.
 */
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a devDependency: the OpenRPC 1.3 meta-schema, to check the document against
import * as metaSchema from '@open-rpc/meta-schema';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a devDependency: a JSON Schema validator (draft-07, the meta-schema's dialect)
import { Ajv } from 'ajv';
import { CardShow, HostErrorCode, HostNotifications, HostRequests, hostProtocolSchema } from '../src/index.js';
import { hostProtocolOpenRpc, type OpenRpcDocument, type OpenRpcMethod } from '../src/OpenRpc.js';
import { messageSchemaKey } from '../src/ProtocolSchema.js';
import { goldens } from './fixtures/messages.js';

const doc = ((): OpenRpcDocument => {
  const built = hostProtocolOpenRpc();
  if (E.isLeft(built)) throw new Error(JSON.stringify(built.left));
  return built.right;
})();

const method = (name: string): OpenRpcMethod => {
  const found = doc.methods.find((m) => m.name === name);
  if (found === undefined) throw new Error(`no method ${name}`);
  return found;
};

const params = (name: string): ReadonlyArray<readonly [string, boolean]> => method(name).params.map((p) => [p.name, p.required === true] as const);

describe('hostProtocolOpenRpc', () => {
  it('is valid for the OpenRPC 1.3 meta-schema (its JSON Schemas are checked as 2020-12 by the schema tests)', () => {
    // The package's types declare the document's TypeScript types, not the meta-schema value it exports.
    const { $schema: _, ...meta } = (metaSchema as unknown as { readonly openrpcDocument: { readonly $schema?: string } }).openrpcDocument;
    const ajv = new Ajv({ strict: false, validateFormats: false });
    // The meta-schema refers to a JSON Schema meta-schema by URL (for schemas, and for a reference's `$ref`);
    // the documents' schemas are 2020-12 and checked by the schema tests.
    ajv.addSchema({ $id: 'https://meta.json-schema.tools', type: ['object', 'boolean'] });
    ajv.addSchema({ $id: 'https://meta.json-schema.tools/', definitions: { JSONSchemaObject: { properties: { $ref: { type: 'string' } } } } });
    const validate = ajv.compile(meta);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...doc, methods: [{ name: 'task/stop', result: { name: 'result', schema: {} } }] })).toBe(false);
    expect(validate({ ...doc, components: { ...doc.components, errors: { Bad: { code: 1.5, message: 'Bad' } } } })).toBe(false);
    expect(doc.openrpc).toBe('1.3.2');
    expect(doc.info.version).toBe('1');
  });

  it('lists every method in its direction: the host’s requests, card/show, and the notifications without a result', () => {
    expect(doc.methods.map((m) => m.name)).toEqual([...Object.keys(HostRequests), CardShow.method, ...Object.keys(HostNotifications)]);
    for (const name of Object.keys(HostRequests)) {
      expect(method(name)).toMatchObject({ 'x-direction': 'hostToExecutor', result: { name: 'result', schema: { $ref: `#/components/schemas/${messageSchemaKey(name, 'result')}` } } });
    }
    expect(method('card/show')).toMatchObject({ 'x-direction': 'executorToHost', result: { schema: { $ref: '#/components/schemas/CardShowResult' } } });
    for (const name of Object.keys(HostNotifications)) {
      expect(method(name)).toMatchObject({ 'x-direction': 'executorToHost', 'x-notification': true });
      expect(method(name).result).toBeUndefined();
    }
    for (const m of doc.methods) expect(m['x-paramsSchema']).toEqual({ $ref: `#/components/schemas/${messageSchemaKey(m.name, 'params')}` });
  });

  it('flattens union params by name: a property is required only when every shape requires it', () => {
    expect(params('skills/setEnabled')).toEqual([
      ['path', false],
      ['enabled', true],
      ['name', false],
    ]);
    expect(params('plugins/install')).toEqual([
      ['marketplace', true],
      ['plugin', true],
      ['version', false],
      ['packagePath', false],
    ]);
    expect(params('skills/read')).toEqual([
      ['path', true],
      ['taskId', false],
      ['cwd', false],
    ]);
    expect(params('executor/info')).toEqual([]);
    expect(params('card/show')).toEqual([['card', true]]);
  });

  it('lists by name every property of the golden params, and every required one', () => {
    for (const m of doc.methods) {
      const listed = new Set(m.params.map((p) => p.name));
      for (const golden of goldens[messageSchemaKey(m.name, 'params')] ?? []) {
        for (const key of Object.keys(golden as object)) if (key !== 'seq') expect(listed, `${m.name}: ${key}`).toContain(key);
        for (const p of m.params) if (p.required === true) expect(Object.keys(golden as object), `${m.name}: ${p.name}`).toContain(p.name);
      }
    }
  });

  it('holds every error code, and the schema of an error reply’s data', () => {
    expect(doc.components.errors).toEqual(Object.fromEntries(Object.entries(HostErrorCode).map(([name, code]) => [name, { code, message: name }])));
    expect(doc['x-errorData']).toEqual({ $ref: '#/components/schemas/HostErrorData' });
  });

  it('has the JSON Schema document’s definitions, referenced under components.schemas', () => {
    const schema = hostProtocolSchema();
    if (E.isLeft(schema)) throw new Error('no schema');
    expect(JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'))).toEqual(schema.right.$defs);
    expect(doc['x-jsonSchema']).toBe(schema.right.$id);
  });
});
