/**
 * Pins the runtime exports of the library's entry points: a change to the public API shows up
 * here as a diff.
 */
import { describe, expect, test } from 'vitest';
import * as index from '../src/index.js';
import * as testing from '../src/testing.js';
import * as json from '../src/json.js';

/** Hand-written exports of `src/index.ts`. */
const handWritten = [
  'JsonBigIntType',
  'NullableType',
  'StructType',
  'WithRestType',
  'clientNotification',
  'clientRequest',
  'codecs',
  'decodeClientNotification',
  'decodeClientRequest',
  'decodeParams',
  'decodeResult',
  'decodeServerNotification',
  'decodeServerRequest',
  'emptyObject',
  'encodeMessage',
  'encodeResult',
  'exactNumberOf',
  'intersection',
  'invalidParams',
  'invalidResult',
  'jsonBigInt',
  'nullable',
  'optionalRecord',
  'serverNotification',
  'serverRequest',
  'struct',
  'toWireJson',
  'unknownMethod',
  'withRest',
  'copyRecord',
  'deepMerge',
  'jsonEqual',
  'own',
  'withKey',
  'withoutKey',
  'OpenKeyofType',
  'OpenUnionType',
  'hasUnknownParts',
  'isKnownLiteral',
  'isUnknownVariant',
  'loggableLiteral',
  'openKeyof',
  'openUnion',
  'unknownParts',
];

/** Generated exports: the name table, the registries, one descriptor per method. */
const generated = ['Methods', 'clientNotifications', 'clientRequests', 'serverNotifications', 'serverRequests'];

describe('src/index.ts', () => {
  test('exports exactly the hand-written API, the registries and one descriptor per method', () => {
    const descriptorNames = Object.keys(index.Methods);
    expect(Object.keys(index).sort()).toEqual([...handWritten, ...generated, ...descriptorNames].sort());
  });

  test('the descriptors other packages rely on exist, with their methods', () => {
    expect({
      Initialize: index.Initialize.method,
      Initialized: index.Initialized.method,
      ThreadStart: index.ThreadStart.method,
      ThreadResume: index.ThreadResume.method,
      ThreadFork: index.ThreadFork.method,
      ThreadUnsubscribe: index.ThreadUnsubscribe.method,
      ThreadArchive: index.ThreadArchive.method,
      TurnStart: index.TurnStart.method,
      TurnInterrupt: index.TurnInterrupt.method,
      TurnSteer: index.TurnSteer.method,
      ConfigRead: index.ConfigRead.method,
      ConfigBatchWrite: index.ConfigBatchWrite.method,
      ConfigValueWrite: index.ConfigValueWrite.method,
      ModelList: index.ModelList.method,
      AccountRead: index.AccountRead.method,
      AccountLogout: index.AccountLogout.method,
      AccountLoginStart: index.AccountLoginStart.method,
      AccountLoginCancel: index.AccountLoginCancel.method,
      SkillsList: index.SkillsList.method,
      PluginList: index.PluginList.method,
      PluginRead: index.PluginRead.method,
      PluginInstall: index.PluginInstall.method,
      PluginUninstall: index.PluginUninstall.method,
      MarketplaceAdd: index.MarketplaceAdd.method,
      PermissionProfileList: index.PermissionProfileList.method,
      ItemCommandExecutionRequestApproval: index.ItemCommandExecutionRequestApproval.method,
      ItemFileChangeRequestApproval: index.ItemFileChangeRequestApproval.method,
      ItemPermissionsRequestApproval: index.ItemPermissionsRequestApproval.method,
      ItemToolRequestUserInput: index.ItemToolRequestUserInput.method,
      McpServerElicitationRequest: index.McpServerElicitationRequest.method,
      ThreadStarted: index.ThreadStarted.method,
      TurnStarted: index.TurnStarted.method,
      TurnCompleted: index.TurnCompleted.method,
      ItemStarted: index.ItemStarted.method,
      ItemCompleted: index.ItemCompleted.method,
      ItemAgentMessageDelta: index.ItemAgentMessageDelta.method,
      ErrorNotice: index.ErrorNotice.method,
      ServerRequestResolved: index.ServerRequestResolved.method,
      ConfigWarning: index.ConfigWarning.method,
      ThreadStatusChanged: index.ThreadStatusChanged.method,
      AccountLoginCompleted: index.AccountLoginCompleted.method,
      AccountUpdated: index.AccountUpdated.method,
    }).toMatchInlineSnapshot(`
      {
        "AccountLoginCancel": "account/login/cancel",
        "AccountLoginCompleted": "account/login/completed",
        "AccountLoginStart": "account/login/start",
        "AccountLogout": "account/logout",
        "AccountRead": "account/read",
        "AccountUpdated": "account/updated",
        "ConfigBatchWrite": "config/batchWrite",
        "ConfigRead": "config/read",
        "ConfigValueWrite": "config/value/write",
        "ConfigWarning": "configWarning",
        "ErrorNotice": "error",
        "Initialize": "initialize",
        "Initialized": "initialized",
        "ItemAgentMessageDelta": "item/agentMessage/delta",
        "ItemCommandExecutionRequestApproval": "item/commandExecution/requestApproval",
        "ItemCompleted": "item/completed",
        "ItemFileChangeRequestApproval": "item/fileChange/requestApproval",
        "ItemPermissionsRequestApproval": "item/permissions/requestApproval",
        "ItemStarted": "item/started",
        "ItemToolRequestUserInput": "item/tool/requestUserInput",
        "MarketplaceAdd": "marketplace/add",
        "McpServerElicitationRequest": "mcpServer/elicitation/request",
        "ModelList": "model/list",
        "PermissionProfileList": "permissionProfile/list",
        "PluginInstall": "plugin/install",
        "PluginList": "plugin/list",
        "PluginRead": "plugin/read",
        "PluginUninstall": "plugin/uninstall",
        "ServerRequestResolved": "serverRequest/resolved",
        "SkillsList": "skills/list",
        "ThreadArchive": "thread/archive",
        "ThreadFork": "thread/fork",
        "ThreadResume": "thread/resume",
        "ThreadStart": "thread/start",
        "ThreadStarted": "thread/started",
        "ThreadStatusChanged": "thread/status/changed",
        "ThreadUnsubscribe": "thread/unsubscribe",
        "TurnCompleted": "turn/completed",
        "TurnInterrupt": "turn/interrupt",
        "TurnStart": "turn/start",
        "TurnStarted": "turn/started",
        "TurnSteer": "turn/steer",
      }
    `);
  });

  test('each descriptor is registered under its method, with its kind', () => {
    const registries = {
      clientRequest: index.clientRequests,
      clientNotification: index.clientNotifications,
      serverRequest: index.serverRequests,
      serverNotification: index.serverNotifications,
    } as const;
    for (const name of Object.keys(index.Methods) as Array<keyof typeof index.Methods>) {
      const descriptor = index[name];
      expect(descriptor.method).toBe(index.Methods[name]);
      expect(registries[descriptor.kind]).toHaveProperty([descriptor.method], descriptor);
    }
    const registered = Object.values(registries).reduce((n, registry) => n + Object.keys(registry).length, 0);
    expect(registered).toBe(Object.keys(index.Methods).length);
  });
});

describe('src/json.ts', () => {
  test('exports the JSON value helpers of the main entry, and nothing else', () => {
    expect(Object.keys(json).sort()).toEqual(['copyRecord', 'deepMerge', 'jsonEqual', 'own', 'withKey', 'withoutKey']);
    for (const [name, value] of Object.entries(json)) expect(value).toBe((index as Record<string, unknown>)[name]);
  });
});

describe('src/testing.ts', () => {
  test('exports the deriver and the ready arbitraries', () => {
    expect(Object.keys(testing).sort()).toEqual(
      [
        'arbitraryOf',
        'commandExecutionRequestApprovalParamsArbitrary',
        'fileChangeRequestApprovalParamsArbitrary',
        'formElicitationRequestParamsArbitrary',
        'mcpServerElicitationRequestParamsArbitrary',
        'mcpServerElicitationRequestResponseArbitrary',
        'permissionsRequestApprovalParamsArbitrary',
        'serverNotificationMessageArbitrary',
        'serverRequestMessageArbitrary',
        'toolRequestUserInputParamsArbitrary',
        'toolRequestUserInputResponseArbitrary',
      ].sort(),
    );
  });
});
