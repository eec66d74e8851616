/**
 * `@wework/elicitation-mapper/testing`: fast-check arbitraries of elicitation requests and of
 * answers, so hosts can property-test their own UI against the mapping. Needs `fast-check` (an
 * optional peer dependency).
 *
 * - {@link supportedSchemaArbitrary}: form schemas the mapper renders, with the order of their
 *   properties and what each property should become;
 * - {@link unsupportedSchemaArbitrary}: schemas the mapper declines, with the expected reason;
 * - {@link plainFormRequestArbitrary}, {@link codexElicitationRequestParamsArbitrary},
 *   {@link codexToolApprovalParamsArbitrary}: whole request params;
 * - {@link answersForCard}, {@link usableAnswersForCard}: the host's answers to a given card.
 *
 * Every value here is pure: arbitraries describe values; fast-check supplies the randomness.
 */
import { codecs, type AskForApprovalStrict, type ToolRequestUserInputResponse } from '@wework/codex-protocol';
import { arbitraryOf } from '@wework/codex-protocol/testing';
import * as fc from 'fast-check';
import type { AnswerType, Card, CardQuestion } from './Card.js';
import type { ApprovalCard, ElicitationAction, FormEvidence, FormsEvidence, McpErrorEvidence, ServerApprovalEvidence, ToolCallEvidence } from './FormsEvidence.js';
import type { Unsupported } from './Unsupported.js';

/** What one property of a generated schema should map to. */
export interface ExpectedQuestion {
  readonly key: string;
  readonly answerType: Exclude<AnswerType, 'approval'>;
  /** The distinct option values in order (`[true, false]` for booleans), `null` for inputs. */
  readonly values: ReadonlyArray<string | boolean> | null;
  readonly required: boolean;
}

/** A form schema the mapper supports, and what it should map to. */
export interface SupportedSchema {
  readonly requestedSchema: {
    readonly type: 'object';
    readonly properties: { readonly [key: string]: object };
    readonly required: ReadonlyArray<string>;
  };
  /** The property keys in the order the schema carries them (`Object.keys` order). */
  readonly keys: ReadonlyArray<string>;
  /** One entry per property, in the same order. */
  readonly expected: ReadonlyArray<ExpectedQuestion>;
}

/** A form schema the mapper declines, and the `_tag` of the reason it should give. */
export interface UnsupportedSchema {
  readonly requestedSchema: unknown;
  readonly expectedTag: Unsupported['_tag'];
}

/** A request's params with the schema's expectations. */
export interface GeneratedRequest<P> {
  readonly params: P;
  readonly schema: SupportedSchema;
}

const arrayIndex = /^(?:0|[1-9]\d*)$/;

/**
 * Property keys that keep insertion order in a JavaScript object (no array-index keys such as
 * `"1"`, which objects list first), including awkward ones (`__proto__`, `constructor`, blanks).
 */
export const propertyKeyArbitrary: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', ' ', 'a.b', 'strategy', 'target') },
  )
  .filter((key) => !(arrayIndex.test(key) && Number(key) < 2 ** 32 - 1));

/** Titles drawn from a small pool half of the time, so that options often share a title. */
const titleArbitrary: fc.Arbitrary<string> = fc.oneof(fc.constantFrom('Fast', 'Safe', 'A', 'A (b)', '', ' '), fc.string({ maxLength: 10 }));
const valuesArbitrary: fc.Arbitrary<Array<string>> = fc.uniqueArray(fc.oneof(fc.constantFrom('a', 'b', 'fast', 'A', ''), fc.string({ maxLength: 8 })), {
  minLength: 1,
  maxLength: 6,
});
const textArbitrary = fc.string({ maxLength: 20 });

/** `title` / `description`, each optional. */
const labelsArbitrary = fc.record({ title: textArbitrary, description: textArbitrary }, { requiredKeys: [] });

/** One generated property schema and what it should map to. */
export type GeneratedProperty = { readonly schema: object; readonly answerType: ExpectedQuestion['answerType']; readonly values: ReadonlyArray<string | boolean> | null };

const oneOfProperty = (listKey: 'oneOf' | 'anyOf'): fc.Arbitrary<GeneratedProperty> =>
  fc
    .tuple(labelsArbitrary, valuesArbitrary.chain((values) => fc.tuple(fc.constant(values), fc.array(titleArbitrary, { minLength: values.length, maxLength: values.length }))), fc.boolean())
    .map(([labels, [values, titles], withDefault]) => ({
      schema: {
        type: 'string',
        ...labels,
        [listKey]: values.map((value, i) => ({ const: value, title: titles[i] ?? '' })),
        ...(withDefault ? { default: values[values.length - 1] } : {}),
      },
      answerType: 'singleChoice' as const,
      values,
    }));

const enumProperty: fc.Arbitrary<GeneratedProperty> = fc
  .tuple(labelsArbitrary, valuesArbitrary, fc.boolean(), fc.array(titleArbitrary, { maxLength: 6 }))
  .map(([labels, values, typed, names]) => ({
    schema: { ...(typed ? { type: 'string' } : {}), ...labels, enum: values, ...(names.length > 0 ? { enumNames: names } : {}) },
    answerType: 'singleChoice' as const,
    values,
  }));

const multiProperty: fc.Arbitrary<GeneratedProperty> = fc
  .tuple(labelsArbitrary, valuesArbitrary, fc.boolean(), fc.array(titleArbitrary, { minLength: 6, maxLength: 6 }))
  .map(([labels, values, titled, titles]) => ({
    schema: {
      type: 'array',
      ...labels,
      items: titled ? { anyOf: values.map((value, i) => ({ const: value, title: titles[i] ?? '' })) } : { type: 'string', enum: values },
      minItems: 0,
      maxItems: values.length,
    },
    answerType: 'multiChoice' as const,
    values,
  }));

const booleanProperty: fc.Arbitrary<GeneratedProperty> = fc
  .tuple(labelsArbitrary, fc.option(fc.boolean(), { nil: undefined }))
  .map(([labels, preset]) => ({
    schema: { type: 'boolean', ...labels, ...(preset === undefined ? {} : { default: preset }) },
    answerType: 'boolean' as const,
    values: [true, false],
  }));

const textProperty: fc.Arbitrary<GeneratedProperty> = fc
  .tuple(labelsArbitrary, fc.boolean(), fc.option(fc.constantFrom('email', 'uri', 'date', 'date-time'), { nil: undefined }))
  .map(([labels, typed, format]) => ({
    schema: { ...(typed ? { type: 'string' } : {}), ...labels, ...(format === undefined ? {} : { format }), maxLength: 200 },
    answerType: 'text' as const,
    values: null,
  }));

const numberProperty: fc.Arbitrary<GeneratedProperty> = fc
  .tuple(labelsArbitrary, fc.constantFrom('number' as const, 'integer' as const), fc.integer({ min: -100, max: 0 }), fc.integer({ min: 1, max: 100 }))
  .map(([labels, type, minimum, maximum]) => ({ schema: { type, ...labels, minimum, maximum }, answerType: type, values: null }));

/** One supported property schema and what it should map to. */
export const supportedPropertyArbitrary: fc.Arbitrary<GeneratedProperty> = fc.oneof(
  oneOfProperty('oneOf'),
  oneOfProperty('anyOf'),
  enumProperty,
  multiProperty,
  booleanProperty,
  textProperty,
  numberProperty,
);

/** Builds a schema object whose properties come in exactly the given order. */
const schemaOf = (entries: ReadonlyArray<readonly [string, GeneratedProperty]>, requiredFlags: ReadonlyArray<boolean>): SupportedSchema => {
  const keys = entries.map(([key]) => key);
  const required = keys.filter((_, i) => requiredFlags[i] === true);
  return {
    requestedSchema: { type: 'object', properties: Object.fromEntries(entries.map(([key, p]) => [key, p.schema])), required },
    keys,
    expected: entries.map(([key, p], i) => ({ key, answerType: p.answerType, values: p.values, required: requiredFlags[i] === true })),
  };
};

/** Form schemas the mapper supports (1–6 properties), with their property order and expectations. */
export const supportedSchemaArbitrary: fc.Arbitrary<SupportedSchema> = fc
  .uniqueArray(propertyKeyArbitrary, { minLength: 1, maxLength: 6 })
  .chain((keys) =>
    fc.tuple(
      fc.constant(keys),
      fc.array(supportedPropertyArbitrary, { minLength: keys.length, maxLength: keys.length }),
      fc.array(fc.boolean(), { minLength: keys.length, maxLength: keys.length }),
    ),
  )
  .map(([keys, properties, requiredFlags]) => schemaOf(keys.map((key, i) => [key, properties[i] as GeneratedProperty] as const), requiredFlags));

const withProperty = (key: string, property: unknown): object => ({ type: 'object', properties: { [key]: property } });

/** Form schemas the mapper declines, each with the `_tag` of the expected reason. */
export const unsupportedSchemaArbitrary: fc.Arbitrary<UnsupportedSchema> = fc.oneof(
  fc.constantFrom<UnsupportedSchema>(
    { requestedSchema: { type: 'object' }, expectedTag: 'MissingProperties' },
    { requestedSchema: { type: 'object', properties: null }, expectedTag: 'MissingProperties' },
    { requestedSchema: undefined, expectedTag: 'MissingProperties' },
    { requestedSchema: { type: 'object', properties: [] }, expectedTag: 'InvalidRequest' },
    { requestedSchema: { type: 'array', properties: {} }, expectedTag: 'InvalidRequest' },
    { requestedSchema: 'a form', expectedTag: 'InvalidRequest' },
  ),
  fc
    .tuple(propertyKeyArbitrary, fc.array(fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3 }), fc.constantFrom('number', 'integer', 'string', undefined))
    .map(([key, values, type]) => ({ requestedSchema: withProperty(key, { ...(type === undefined ? {} : { type }), enum: ['ok', ...values] }), expectedTag: 'NonStringEnum' as const })),
  fc
    .tuple(propertyKeyArbitrary, fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.dictionary(fc.string(), fc.string())))
    .map(([key, value]) => ({
      requestedSchema: withProperty(key, { type: 'string', oneOf: [{ const: 'ok', title: 'OK' }, { const: value, title: 'Other' }] }),
      expectedTag: 'NonStringConst' as const,
    })),
  fc
    .tuple(propertyKeyArbitrary, fc.constantFrom('object', 'null', 'date', 'file'))
    .map(([key, type]) => ({ requestedSchema: withProperty(key, { type, title: 'Field' }), expectedTag: 'UnsupportedPropertyType' as const })),
  propertyKeyArbitrary.map((key) => ({ requestedSchema: withProperty(key, { type: 'array', items: { type: 'number' } }), expectedTag: 'UnsupportedPropertyType' as const })),
  propertyKeyArbitrary.map((key) => ({ requestedSchema: withProperty(key, { type: 'string', oneOf: [] }), expectedTag: 'EmptyOptions' as const })),
  propertyKeyArbitrary.map((key) => ({ requestedSchema: withProperty(key, { type: 'string', oneOf: [{ type: 'string' }] }), expectedTag: 'UnsupportedOption' as const })),
);

/** Plain MCP `elicitation/create` form params (`mode` present or absent), as an MCP SDK host receives them. */
export const plainFormRequestArbitrary: fc.Arbitrary<GeneratedRequest<{ readonly mode?: 'form'; readonly message: string; readonly requestedSchema: object }>> = fc
  .tuple(supportedSchemaArbitrary, textArbitrary, fc.boolean())
  .map(([schema, message, withMode]) => ({
    params: { ...(withMode ? { mode: 'form' as const } : {}), message, requestedSchema: schema.requestedSchema },
    schema,
  }));

const sortedKeys = (schema: SupportedSchema): SupportedSchema => {
  const order = schema.keys.map((key, i) => [key, i] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const properties = schema.requestedSchema.properties;
  return {
    requestedSchema: { ...schema.requestedSchema, properties: Object.fromEntries(order.map(([key]) => [key, properties[key] as object])) },
    keys: order.map(([key]) => key),
    expected: order.map(([, i]) => schema.expected[i] as ExpectedQuestion),
  };
};

const envelopeArbitrary = fc.record({
  threadId: fc.uuid(),
  turnId: fc.option(fc.uuid(), { nil: null }),
  serverName: fc.constantFrom('forms', 'example-plugin', 'deploy_tools'),
  environmentId: fc.constant(null),
});

/**
 * Params of a Codex `mcpServer/elicitation/request` in `form` (or `openai/form`) mode, with the
 * property keys sorted as Codex forwards them.
 */
export const codexElicitationRequestParamsArbitrary: fc.Arbitrary<GeneratedRequest<object>> = fc
  .tuple(envelopeArbitrary, supportedSchemaArbitrary.map(sortedKeys), textArbitrary, fc.constantFrom('form', 'form', 'openai/form'))
  .map(([envelope, schema, message, mode]) => ({ params: { ...envelope, mode, _meta: null, message, requestedSchema: schema.requestedSchema }, schema }));

/** Params of a Codex MCP tool approval (`_meta.codex_approval_kind: "mcp_tool_call"`, empty schema). */
export const codexToolApprovalParamsArbitrary: fc.Arbitrary<object> = fc
  .tuple(
    envelopeArbitrary,
    fc.constantFrom<unknown>(undefined, 'session', 'always', ['session'], ['session', 'always'], ['always', 'session', 'later']),
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue(), { maxKeys: 3 }),
  )
  .map(([envelope, persist, tool, toolParams]) => ({
    ...envelope,
    mode: 'form',
    _meta: {
      codex_approval_kind: 'mcp_tool_call',
      ...(persist === undefined ? {} : { persist }),
      tool_name: tool,
      tool_params: toolParams,
      tool_params_display: Object.entries(toolParams).map(([name, value]) => ({ name, value, display_name: name })),
    },
    message: `Allow the ${envelope.serverName} MCP server to run tool ${JSON.stringify(tool)}?`,
    requestedSchema: { type: 'object', properties: {} },
  }));

const labelsOf = (question: CardQuestion): ReadonlyArray<string> => (question.options ?? []).map((option) => option.label);

/** A usable answer to one question: valid labels for choices, any text, a number for number inputs. */
const usableAnswer = (question: CardQuestion): fc.Arbitrary<Array<string>> => {
  const labels = labelsOf(question);
  switch (question.answerType) {
    case 'singleChoice':
    case 'boolean':
    case 'approval':
    case 'openUrl':
      return fc.constantFrom(...labels).map((label) => [label]);
    case 'multiChoice':
      return fc.subarray([...labels], { minLength: 1 });
    case 'text':
      return textArbitrary.map((text) => [text]);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((n) => [String(n)]);
    case 'integer':
      return fc.integer({ min: -1e6, max: 1e6 }).map((n) => [String(n)]);
  }
};

/** Any answer, usable or not: unknown labels, non-numbers, empty lists, several entries. */
const anyAnswer = (question: CardQuestion): fc.Arbitrary<Array<string>> =>
  fc.oneof(usableAnswer(question), fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }), fc.constant<Array<string>>([]));

const responseOf = (entries: ReadonlyArray<readonly [string, Array<string>]>): ToolRequestUserInputResponse => ({
  answers: Object.fromEntries(entries.map(([id, answers]) => [id, { answers }])),
});

/**
 * Answers a host could send for `card`: every question answered usably (a valid label, a text, a
 * number), in the protocol's `ToolRequestUserInputResponse` shape.
 */
export function usableAnswersForCard(card: Card): fc.Arbitrary<ToolRequestUserInputResponse> {
  const questions: ReadonlyArray<CardQuestion> = card.questions;
  return fc.tuple(...questions.map((q) => usableAnswer(q).map((answers) => [q.id, answers] as const))).map(responseOf);
}

/**
 * Any answers a host could send for `card`: questions answered or skipped, with valid or invalid
 * labels and numbers, plus answers to question ids the card does not have.
 */
export function answersForCard(card: Card): fc.Arbitrary<ToolRequestUserInputResponse> {
  const questions: ReadonlyArray<CardQuestion> = card.questions;
  const known = questions.map((q) => fc.option(anyAnswer(q).map((answers) => [q.id, answers] as const), { nil: undefined }));
  const ids = new Set(questions.map((q) => q.id));
  const unknown = fc.array(
    fc.tuple(
      propertyKeyArbitrary.filter((id) => !ids.has(id)),
      fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }),
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(fc.tuple(...known), unknown)
    .map(([answered, extra]) => responseOf([...answered.filter((entry) => entry !== undefined), ...extra]));
}

/** Any `AskForApproval` this version knows (the generated protocol type). */
const askForApprovalArbitrary: fc.Arbitrary<AskForApprovalStrict> = arbitraryOf(codecs.AskForApprovalStrict);
/** Codex's MCP tool approval modes (`auto`, `prompt`, `writes`, `approve`). */
const toolsApprovalMode: fc.Arbitrary<string> = fc.constantFrom('auto', 'prompt', 'writes', 'approve');
const server = fc.constantFrom('forms', 'search', 'wegent_apps');
const tool = fc.constantFrom('deploy', 'choose_strategy', 'echo', 'configure_release');
const action: fc.Arbitrary<ElicitationAction> = fc.constantFrom('accept', 'decline', 'cancel', 'none');
const mcpError: fc.Arbitrary<McpErrorEvidence> = fc.record({
  code: fc.option(fc.constantFrom(-32602, -32001, -32603), { nil: null }),
  message: fc.constantFrom(
    'MCP error -32602: data did not match any variant of untagged enum ElicitRequestParamsWire',
    'Request timed out',
    'The MCP client does not support openai/form requests.',
    'Elicitation response content does not match requested schema: data/replicas must be integer',
  ),
});

/** What happened to one plugin form. */
export const formEvidenceArbitrary: fc.Arbitrary<FormEvidence> = fc.record({
  server,
  tool: fc.option(tool, { nil: null }),
  message: fc.string({ maxLength: 12 }),
  mode: fc.constantFrom('form', 'openai/form', 'url'),
  sent: fc.boolean(),
  hasProperties: fc.boolean(),
  duringToolCall: fc.option(fc.boolean(), { nil: null }),
  reachedClient: fc.boolean(),
  schemaSupported: fc.option(fc.boolean(), { nil: null }),
  clientAnswer: action,
  pluginResult: action,
  pluginError: fc.option(mcpError, { nil: null }),
  toolContinued: fc.option(fc.boolean(), { nil: null }),
});

/** What happened to one MCP tool call. */
export const toolCallEvidenceArbitrary: fc.Arbitrary<ToolCallEvidence> = fc.record({
  server,
  tool,
  approvalCard: fc.constantFrom<ApprovalCard>('none', 'elicitation', 'requestUserInput'),
  reachedPlugin: fc.boolean(),
  error: fc.option(fc.constantFrom('MCP tool call requires approval, but approval policy is never', 'user cancelled MCP tool call'), { nil: null }),
});

const serverApproval: fc.Arbitrary<ServerApprovalEvidence> = fc.record({
  defaultToolsApprovalMode: fc.option(toolsApprovalMode, { nil: null }),
  tools: fc.dictionary(tool, toolsApprovalMode, { maxKeys: 2 }),
});

/** Evidence for `diagnoseForms`. */
export const formsEvidenceArbitrary: fc.Arbitrary<FormsEvidence> = fc.record({
  approvalPolicy: fc.option(askForApprovalArbitrary, { nil: null }),
  toolCallMcpElicitation: fc.option(fc.boolean(), { nil: null }),
  elicitationsAutoDeny: fc.option(fc.boolean(), { nil: null }),
  openaiFormAdvertised: fc.option(fc.boolean(), { nil: null }),
  mcpServers: fc.dictionary(server, serverApproval, { maxKeys: 3 }),
  toolCalls: fc.array(toolCallEvidenceArbitrary, { maxLength: 3 }),
  forms: fc.array(formEvidenceArbitrary, { maxLength: 3 }),
});

/** A link a URL-mode card offers: `https` to any host, or `http` to a loopback host, with any path and query. */
export const offeredUrlArbitrary: fc.Arbitrary<string> = fc.oneof(
  fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
  fc
    .tuple(
      fc.constantFrom('localhost', '127.0.0.1', '127.12.0.254', '[::1]'),
      fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
      fc.webPath(),
    )
    .map(([host, port, path]) => `http://${host}${port === undefined ? '' : `:${port}`}${path}`),
);

/**
 * A link a URL-mode card never offers, with the problem expected: another scheme (`javascript:`, `file:`,
 * `data:`, ...), `http` to a host that is not loopback, a user name or password in the address, or text
 * that does not parse. Every one carries `secret-marker` in a part no message may quote.
 */
export const refusedUrlArbitrary: fc.Arbitrary<{ readonly url: string; readonly problem: 'scheme' | 'httpNotLoopback' | 'credentials' | 'unparsable' }> = fc.oneof(
  fc
    .tuple(fc.constantFrom('javascript', 'JavaScript', 'file', 'data', 'vbscript', 'blob', 'ftp', 'ws', 'about', 'chrome'), fc.constantFrom('', '//files.example'), fc.webPath())
    .map(([scheme, authority, path]) => ({ url: `${scheme}:${authority}/p${path}/secret-marker`, problem: 'scheme' as const })),
  fc
    .domain()
    .filter((domain) => domain !== 'localhost')
    .chain((domain) => fc.webPath().map((path) => ({ url: `http://${domain}${path}/secret-marker`, problem: 'httpNotLoopback' as const }))),
  fc.domain().map((domain) => ({ url: `https://trusted.example:secret-marker@${domain}/`, problem: 'credentials' as const })),
  fc.constantFrom('secret-marker', '//secret-marker', 'https://', 'https://[secret-marker]/', '').map((url) => ({ url, problem: 'unparsable' as const })),
);
