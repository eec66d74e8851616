import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/thread-lifecycle', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_LIFECYCLE_CONFIG',
      'LifecycleCommand',
      'LifecycleEvent',
      'TaskEvent',
      'deliveryStep',
      'idleDelivery',
      'idleThreads',
      'initialState',
      'initialTaskThreads',
      'isLifecycleCommand',
      'lifecycleConfig',
      'makeThreadLifecycle',
      'nextDeadline',
      'taskOfThread',
      'taskStep',
      'threadStatus',
      'transition',
      'unsteerableReason',
    ]);
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(['gapArbitrary', 'lifecycleEventArbitrary', 'runTaskScript', 'runWithFakeClock', 'taskScriptArbitrary', 'timedEventsArbitrary'].sort());
  });
});
