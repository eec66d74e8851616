/**
 * The host protocol's JSON Schema is the truth about its codecs: every codec converts exactly (no error,
 * no approximation), the document compiles in ajv's strict mode, golden messages of every part validate
 * and decode, broken ones are refused by both, and on mutations of the goldens the codec decodes exactly
 * when the schema validates. `schemaForMessage` names the schema of a message part by method.
 */
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { CardShow, HostErrorData, HostNotifications, HostRequests, hostProtocolSchema, schemaForMessage } from '../src/index.js';
import {
  HOST_PROTOCOL_SCHEMA_ID,
  hostProtocolMessages,
  messageSchemaKey,
  type HostMessageKind,
  type HostMessagePart,
} from '../src/ProtocolSchema.js';
import type { JsonSchemaObject } from '../src/JsonSchema.js';
import { goldens } from './fixtures/messages.js';
import { decodes, mutateAll, mutationsArbitrary, newAjv, stringsOf, type Json, type ValidateFunction } from './schemaTesting.js';

const schema = (): JsonSchemaObject => {
  const built = hostProtocolSchema();
  if (E.isLeft(built)) throw new Error(JSON.stringify(built.left));
  return built.right;
};

const messages = hostProtocolMessages();
const validators = new Map<string, ValidateFunction>();

beforeAll(() => {
  const ajv = newAjv();
  ajv.addSchema(schema());
  for (const message of messages) {
    const validate = ajv.getSchema(`${HOST_PROTOCOL_SCHEMA_ID}#/$defs/${message.key}`);
    if (validate === undefined) throw new Error(`no schema for ${message.key}`);
    validators.set(message.key, validate);
  }
});

const validatorOf = (key: string): ValidateFunction => {
  const validate = validators.get(key);
  if (validate === undefined) throw new Error(`no validator for ${key}`);
  return validate;
};

const codecOf = (key: string) => {
  const message = messages.find((m) => m.key === key);
  if (message === undefined) throw new Error(`no message ${key}`);
  return message.codec;
};

describe('hostProtocolSchema', () => {
  it('converts every codec of the protocol exactly: no error, no refinement it cannot read', () => {
    expect(E.isRight(hostProtocolSchema())).toBe(true);
  });

  it('is one 2020-12 document with a definition per message part and the shared shapes under their codec names', () => {
    const doc = schema();
    expect(doc.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.$id).toBe(HOST_PROTOCOL_SCHEMA_ID);
    const keys = Object.keys(doc.$defs ?? {});
    for (const method of Object.keys(HostRequests)) expect(keys).toEqual(expect.arrayContaining([messageSchemaKey(method, 'params'), messageSchemaKey(method, 'result')]));
    for (const method of Object.keys(HostNotifications)) expect(keys).toContain(messageSchemaKey(method, 'params'));
    expect(keys).toEqual(expect.arrayContaining(['CardShowParams', 'CardShowResult', 'HostErrorData', 'HostCard', 'HostQuestion', 'HostReply', 'TaskRecord', 'ModelSelection', 'ThreadItem', 'Turn', 'Model', 'JsonValue', 'WegentToken']));
    expect(doc.$defs?.['CardShowResult']).toEqual({ $ref: '#/$defs/HostReply' });
    expect(doc.$defs?.['TaskCreateResult']).toEqual({ type: 'object', properties: { task: { $ref: '#/$defs/TaskRecord' } }, required: ['task'] });
  });

  it('says what a partial prop typed undefined means: the property is absent', () => {
    expect(schema().$defs?.['PluginsInstallParams']).toEqual({
      anyOf: [
        { type: 'object', properties: { marketplace: { type: 'string' }, plugin: { type: 'string' }, version: { type: 'string' }, packagePath: { type: 'string' } }, required: ['marketplace', 'plugin', 'version', 'packagePath'] },
        { type: 'object', properties: { marketplace: { type: 'string' }, plugin: { type: 'string' }, version: false, packagePath: false }, required: ['marketplace', 'plugin'] },
      ],
    });
  });

  it('has golden messages for exactly the parts of the protocol', () => {
    expect(Object.keys(goldens).sort()).toEqual(messages.map((message) => message.key).sort());
  });

  it('takes every golden message, and so does its codec', () => {
    for (const message of messages) {
      for (const value of goldens[message.key] ?? []) {
        expect(decodes(message.codec, value), `${message.key} decodes ${JSON.stringify(value)}`).toBe(true);
        expect(validatorOf(message.key)(value), `${message.key} validates ${JSON.stringify(value)}: ${JSON.stringify(validatorOf(message.key).errors)}`).toBe(true);
      }
    }
  });

  it.each<readonly [string, string, unknown]>([
    ['a missing field', 'TaskCreateParams', { taskId: 'task-1', modelSelection: { model: null } }],
    ['a missing nested field', 'TaskOpenParams', { task: { taskId: 'task-1', threadId: 'th', modelSelection: { model: null }, executionRequest: {}, archived: false } }],
    ['a wrong type', 'MessageSendParams', { taskId: 7, markdown: 'hi' }],
    ['a wrong type in an array', 'MessageSendParams', { taskId: 't', markdown: 'hi', attachments: ['/a', 1] }],
    ['an unknown enum value', 'MessageSendParams', { taskId: 't', markdown: 'hi', permissionMode: 'root' }],
    ['an unknown card origin', 'CardShowParams', { card: { ...(goldens['CardShowParams']?.[0] as { card: object }).card, origin: 'telepathy' } }],
    ['an unknown answer action', 'CardShowResult', { action: 'shrug' }],
    ['answers that are not lists of strings', 'CardShowResult', { answers: { q: { answers: 'Safe' } } }],
    ['a union matching no variant', 'SkillsSetEnabledParams', { enabled: true }],
    ['a field one variant forbids', 'PluginsInstallParams', { marketplace: 'local', plugin: 'forms', version: '1.0.0' }],
    ['a token with a space', 'RuntimeSetWegentTokenParams', { token: 'a b', expiresIn: 60 }],
    ['a lifetime beyond 30 days', 'RuntimeSetWegentTokenParams', { token: 'abc', expiresIn: 2_592_001 }],
    ['a fractional lifetime', 'RuntimeSetWegentTokenParams', { token: 'abc', expiresIn: 1.5 }],
    ['a negative cursor', 'EventsSubscribeParams', { after: -1 }],
    ['a known item type with a wrong field', 'TranscriptItemParams', { taskId: 't', threadId: 'th', turnId: 'u', phase: 'started', item: { type: 'plan', id: 'p', text: 7 } }],
    ['an unknown phase', 'TranscriptItemParams', { taskId: 't', threadId: 'th', turnId: 'u', phase: 'paused', item: { type: 'plan', id: 'p', text: '' } }],
    ['error data without a tag', 'HostErrorData', { retryable: true }],
    ['not an object', 'TaskStopParams', ['task-1']],
  ])('refuses %s, as the codec does (%s)', (_, key, value) => {
    expect(decodes(codecOf(key), value)).toBe(false);
    expect(validatorOf(key)(value)).toBe(false);
  });

  it('refuses the params of one method sent as another, as the codec does, and has no schema for an unknown method', () => {
    const pairs: ReadonlyArray<readonly [string, string]> = [
      ['task/stop', 'accounts/cancel'],
      ['accounts/switch', 'task/archive'],
      ['plugins/uninstall', 'apps/setEnabled'],
      ['card/dismissed', 'auth/session'],
    ];
    for (const [sent, as] of pairs) {
      const kind = (method: string): HostMessageKind => (Object.prototype.hasOwnProperty.call(HostRequests, method) ? 'hostRequest' : 'notification');
      const params = goldens[messageSchemaKey(sent, 'params')]?.[0];
      const target = schemaForMessage(kind(as), as, 'params');
      if (E.isLeft(target)) throw new Error(as);
      expect(decodes(codecOf(target.right.key), params)).toBe(false);
      expect(validatorOf(target.right.key)(params)).toBe(false);
    }
    expect(schemaForMessage('hostRequest', 'task/creat', 'params')).toEqual(E.left({ _tag: 'UnknownMethod', kind: 'hostRequest', method: 'task/creat' }));
    expect(schemaForMessage('notification', 'task/create', 'params')).toEqual(E.left({ _tag: 'UnknownMethod', kind: 'notification', method: 'task/create' }));
  });

  it('agrees with the codecs on mutations of the golden messages: decodes ⇔ validates', () => {
    const cases = messages.flatMap((message) => (goldens[message.key] ?? []).map((value) => ({ key: message.key, codec: message.codec, value: value as Json })));
    const pool = [...new Set(cases.flatMap((c) => stringsOf(c.value)))];
    fc.assert(
      fc.property(fc.constantFrom(...cases), mutationsArbitrary, ({ key, codec, value }, mutations) => {
        const mutated = JSON.parse(JSON.stringify(mutateAll(value, mutations, pool))) as unknown;
        expect(validatorOf(key)(mutated), `${key}: ${JSON.stringify(mutated)}`).toBe(decodes(codec, mutated));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('schemaForMessage', () => {
  it.each<readonly [HostMessageKind, string, HostMessagePart, string]>([
    ['hostRequest', 'task/create', 'params', 'TaskCreateParams'],
    ['hostRequest', 'task/create', 'result', 'TaskCreateResult'],
    ['hostRequest', 'integrations/apps/read', 'result', 'IntegrationsAppsReadResult'],
    ['hostRequest', 'runtime/setWegentToken', 'params', 'RuntimeSetWegentTokenParams'],
    ['hostRequest', 'task/stop', 'errorData', 'HostErrorData'],
    ['executorRequest', 'card/show', 'params', 'CardShowParams'],
    ['executorRequest', 'card/show', 'result', 'CardShowResult'],
    ['notification', 'transcript/item', 'params', 'TranscriptItemParams'],
  ])('names the schema of %s %s %s', (kind, method, part, key) => {
    expect(schemaForMessage(kind, method, part)).toEqual(E.right({ key, pointer: `#/$defs/${key}`, ref: `${HOST_PROTOCOL_SCHEMA_ID}#/$defs/${key}` }));
  });

  it('names a schema whose codec is the part’s own', () => {
    const codecs: ReadonlyArray<readonly [HostMessageKind, string, HostMessagePart, unknown]> = [
      ...Object.values(HostRequests).flatMap((d) => [['hostRequest', d.method, 'params', d.params] as const, ['hostRequest', d.method, 'result', d.result] as const]),
      ['executorRequest', CardShow.method, 'params', CardShow.params],
      ['executorRequest', CardShow.method, 'result', CardShow.result],
      ...Object.values(HostNotifications).map((d) => ['notification', d.method, 'params', d.params] as const),
      ['hostRequest', 'executor/info', 'errorData', HostErrorData],
    ];
    for (const [kind, method, part, codec] of codecs) {
      const found = schemaForMessage(kind, method, part);
      expect(E.isRight(found) && codecOf(found.right.key)).toBe(codec);
    }
  });

  it('has no schema for a part a message does not have', () => {
    expect(schemaForMessage('notification', 'card/dismissed', 'result')).toMatchObject({ left: { _tag: 'NoSuchPart' } });
    expect(schemaForMessage('executorRequest', 'card/show', 'errorData')).toMatchObject({ left: { _tag: 'NoSuchPart' } });
    expect(schemaForMessage('hostRequest', 'toString', 'params')).toMatchObject({ left: { _tag: 'UnknownMethod' } });
  });
});
