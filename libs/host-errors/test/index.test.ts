import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

describe('public API of @wework/host-errors', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'accountFailure',
      'categoryText',
      'describeAccountFault',
      'fileSystemCategory',
      'hostFailure',
      'inventoryFailure',
      'managementFailure',
      'marketplaceFailure',
      'pluginServiceFailure',
      'runtimeFailure',
      'settingsFailure',
      'skillReadFailure',
      'taskFailure',
    ]);
  });
});
