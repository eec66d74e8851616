/**
 * Pins the runtime exports of the library's entry point: a change to the public API shows up here as a diff.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public API of @wework/host-protocol', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'AccountList',
        'AppsSetEnabled',
        'IntegrationsAppsRead',
        'IntegrationsAppsWrite',
        'PluginsInstalled',
        'PluginsSetEnabled',
        'PluginsTrial',
        'SkillsSetEnabled',
        'InventoryChangedNotification',
        'InstalledInventory',
        'InstalledPlugin',
        'InventoryApp',
        'InventoryChange',
        'InventorySkill',
        'InventoryStatus',
        'TrialResult',
        'AccountsAdd',
        'AccountsCancel',
        'AccountsList',
        'AccountsSwitch',
        'AgentMessageDeltaNotification',
        'AuthCancel',
        'AuthRecover',
        'AuthRequired',
        'AuthSessionNotification',
        'CardDismissedNotification',
        'CardShow',
        'EmptyResult',
        'ExecutionRequest',
        'ExecutorInfo',
        'ForkResult',
        'HostErrorCode',
        'HostNotifications',
        'HostReply',
        'HostRequests',
        'Inspection',
        'ItemNotification',
        'ListedAccount',
        'LoginCompletedNotification',
        'MessageSend',
        'ModelCategory',
        'ModelRouterRoute',
        'ModelSelection',
        'ModelsList',
        'PermissionMode',
        'PluginSummary',
        'PluginsInstall',
        'PluginsList',
        'PluginsUninstall',
        'RuntimeState',
        'RuntimeStatus',
        'RuntimeStatusNotification',
        'SendResult',
        'SettingsRead',
        'SettingsWrite',
        'SupervisionClearModel',
        'SupervisionInspect',
        'SupervisionModelConfig',
        'SupervisionSetModel',
        'TaskArchive',
        'TaskCreate',
        'TaskFork',
        'TaskList',
        'TaskOpen',
        'TaskRecord',
        'TaskStop',
        'TurnCompletedNotification',
        'TurnStartedNotification',
        'decodeHostParams',
        'decodeHostResult',
        'describeDecodeErrors',
        'hostRequest',
        'notificationDescriptor',
        'requestDescriptor',
      ].sort(),
    );
  });

  it('every request and notification descriptor is listed by its method', () => {
    for (const [method, descriptor] of Object.entries(api.HostRequests)) expect(descriptor.method).toBe(method);
    for (const [method, descriptor] of Object.entries(api.HostNotifications)) expect(descriptor.method).toBe(method);
  });
});
