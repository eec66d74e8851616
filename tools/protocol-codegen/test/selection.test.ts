import { describe, expect, test } from 'vitest';
import { readProtocolModel } from '../src/protocolModel.mjs';
import { pascalCaseOfMethod, planGeneration } from '../src/selection.mjs';

const tree = new Map([
  ['ClientRequest.ts', 'import type { ThreadStartParams } from "./ThreadStartParams.js";\nimport type { RequestId } from "./RequestId.js";\nexport type ClientRequest = { "method": "thread/start", id: RequestId, params: ThreadStartParams, } | { "method": "account/logout", id: RequestId, params: undefined, };\n'],
  ['ClientNotification.ts', 'export type ClientNotification = { "method": "initialized" };\n'],
  ['ServerRequest.ts', 'import type { AskParams } from "./AskParams.js";\nimport type { RequestId } from "./RequestId.js";\nexport type ServerRequest = { "method": "item/ask", id: RequestId, params: AskParams, };\n'],
  ['ServerNotification.ts', 'import type { ErrorNotification } from "./ErrorNotification.js";\nexport type ServerNotification = { "method": "error", "params": ErrorNotification };\n'],
  ['RequestId.ts', 'export type RequestId = string | number;\n'],
  ['ThreadStartParams.ts', 'export type ThreadStartParams = { cwd: string | null, };\n'],
  ['ThreadStartResponse.ts', 'export type ThreadStartResponse = { id: string, };\n'],
  ['LogoutAccountResponse.ts', 'export type LogoutAccountResponse = Record<string, never>;\n'],
  ['AskParams.ts', 'export type AskParams = { question: string, };\n'],
  ['AskResponse.ts', 'export type AskResponse = { answer: string, };\n'],
  ['ErrorNotification.ts', 'export type ErrorNotification = { message: string, };\n'],
]);

const config = {
  clientRequests: ['thread/start', 'account/logout'],
  clientNotifications: ['*'],
  serverRequests: ['*'],
  serverNotifications: ['*'],
  responseTypeOverrides: { 'account/logout': 'LogoutAccountResponse' },
  descriptorNameOverrides: { error: 'ErrorNotice' },
  nameClashPreference: ['v2', ''],
  nameClashPrefixes: { '': 'Core', v2: 'V2' },
};

describe('planGeneration', () => {
  test('pairs params with responses, names descriptors and orders types', () => {
    const plan = planGeneration(readProtocolModel(tree), config);
    expect(plan.methods.map((m) => [m.table, m.method, m.descriptorName, m.paramsId, m.resultId])).toEqual([
      ['clientRequests', 'thread/start', 'ThreadStart', 'ThreadStartParams', 'ThreadStartResponse'],
      ['clientRequests', 'account/logout', 'AccountLogout', null, 'LogoutAccountResponse'],
      ['clientNotifications', 'initialized', 'Initialized', null, null],
      ['serverRequests', 'item/ask', 'ItemAsk', 'AskParams', 'AskResponse'],
      ['serverNotifications', 'error', 'ErrorNotice', 'ErrorNotification', null],
    ]);
    expect(plan.order).toEqual(['AskParams', 'AskResponse', 'ErrorNotification', 'LogoutAccountResponse', 'ThreadStartParams', 'ThreadStartResponse']);
  });

  test('fails on a method the protocol does not have', () => {
    expect(() => planGeneration(readProtocolModel(tree), { ...config, clientRequests: ['thread/begin'] })).toThrow(
      'clientRequests: the protocol has no method "thread/begin"',
    );
  });

  test('fails when a request has no response type', () => {
    expect(() => planGeneration(readProtocolModel(tree), { ...config, responseTypeOverrides: {} })).toThrow(
      /no response type for "account\/logout"/,
    );
  });

  test('fails when a descriptor name would shadow a global', () => {
    expect(() => planGeneration(readProtocolModel(tree), { ...config, descriptorNameOverrides: {} })).toThrow(/error → Error/);
  });
});

test('pascalCaseOfMethod', () => {
  expect(pascalCaseOfMethod('item/commandExecution/requestApproval')).toBe('ItemCommandExecutionRequestApproval');
  expect(pascalCaseOfMethod('thread/increment_elicitation')).toBe('ThreadIncrementElicitation');
  expect(pascalCaseOfMethod('initialized')).toBe('Initialized');
});
