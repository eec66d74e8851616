/**
 * Type tests: the host protocol's codecs of the shapes the executor's services answer describe exactly
 * what those services give (both ways), so the executor answers them without conversion.
 */
import type { RuntimeStatus as SupervisorStatus } from '@wework/app-server-client/node';
import type { AccountList as DeviceAccounts } from '@wework/codex-home';
import type { AccountList, RuntimeStatus } from '@wework/host-protocol';
import { describe, expectTypeOf, test } from 'vitest';

describe('host protocol shapes', () => {
  test('runtime/status is the supervisor’s status', () => {
    expectTypeOf<SupervisorStatus>().toExtend<RuntimeStatus>();
    expectTypeOf<RuntimeStatus>().toExtend<SupervisorStatus>();
  });
  test('accounts/list is the device’s account list', () => {
    expectTypeOf<DeviceAccounts>().toExtend<AccountList>();
    expectTypeOf<AccountList>().toExtend<DeviceAccounts>();
  });
});
