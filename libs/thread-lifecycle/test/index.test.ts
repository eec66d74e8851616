import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as testing from '../src/testing.js';

describe('public API of @wework/thread-lifecycle', () => {
  it('pins the runtime exports of "."', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'DEFAULT_IDLE_TIMEOUT_MS',
        'DEFAULT_LIFECYCLE_CONFIG',
        'DEFAULT_MAX_IDLE_THREADS',
        'LifecycleCommand',
        'LifecycleEvent',
        'MAX_WAITING_MESSAGES',
        'TaskEvent',
        'initialTaskThreads',
        'isLifecycleCommand',
        'taskOfThread',
        'taskStep',
        'deliveryStep',
        'deliverySteps',
        'idleDelivery',
        'waitingCount',
        'idleThreads',
        'initialState',
        'invalidLifecycleConfig',
        'lifecycleConfig',
        'makeThreadLifecycle',
        'nextDeadline',
        'threadStatus',
        'transition',
      ].sort(),
    );
  });

  it('pins the runtime exports of "./testing"', () => {
    expect(Object.keys(testing).sort()).toEqual(['gapArbitrary', 'lifecycleEventArbitrary', 'runTaskScript', 'runWithFakeClock', 'taskScriptArbitrary', 'timedEventsArbitrary'].sort());
  });
});
