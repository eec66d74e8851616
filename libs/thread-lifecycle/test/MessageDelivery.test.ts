/**
 * The delivery rules of messages sent while a turn runs, by example and as properties over random
 * conversations driven the way the executor drives them: every message is answered exactly once, queued
 * messages start their turns in the order they were sent, at most sixteen wait, one turn runs at a time,
 * and a stop cancels everything that waits.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryStep, idleDelivery, unsteerableReason, type DeliveryCommand, type DeliveryEvent, type DeliveryState, type UnsteerableReason } from '../src/index.js';
import { MAX_WAITING_MESSAGES, deliverySteps, waitingCount } from '../src/MessageDelivery.js';

const submit = (messageId: string, delivery: 'steer' | 'queue', unsteerable?: UnsteerableReason): DeliveryEvent => ({
  _tag: 'Submit',
  message: { messageId, delivery, ...(unsteerable === undefined ? {} : { unsteerable }) },
});
const started = (turnId: string): DeliveryEvent => ({ _tag: 'TurnStarted', turnId });
const ended: DeliveryEvent = { _tag: 'TurnEnded' };
const answered = (messageId: string, outcome: 'joined' | 'missed' | 'failed'): DeliveryEvent => ({ _tag: 'SteerAnswered', messageId, outcome });
const stop: DeliveryEvent = { _tag: 'Stop' };
const mentions: UnsteerableReason = { _tag: 'NamesSkillsPluginsOrApps' };

/** Codex's input item types: the two a running turn takes, the mentions it does not, and a type Codex may add. */
const joining = ['text', 'localImage'] as const;
const inputItem = fc.oneof(fc.constantFrom(...joining, 'image', 'skill', 'mention'), fc.string()).map((type) => ({ type }));

describe('unsteerableReason', () => {
  it('text and local images join; a skill, plugin or app mention does not; a settings change does not', () => {
    expect(unsteerableReason([], false)).toBeNull();
    expect(unsteerableReason([{ type: 'text' }, { type: 'localImage' }], false)).toBeNull();
    expect(unsteerableReason([{ type: 'text' }, { type: 'skill' }], false)).toEqual({ _tag: 'NamesSkillsPluginsOrApps' });
    expect(unsteerableReason([{ type: 'mention' }], false)).toEqual({ _tag: 'NamesSkillsPluginsOrApps' });
    expect(unsteerableReason([{ type: 'text' }], true)).toEqual({ _tag: 'ChangesSettings' });
    expect(unsteerableReason([{ type: 'skill' }], true)).toEqual({ _tag: 'NamesSkillsPluginsOrApps' });
  });

  it('property: a message is refused exactly when an item is neither text nor a local image, or it changes settings; a mention wins', () => {
    fc.assert(
      fc.property(fc.array(inputItem, { maxLength: 6 }), fc.boolean(), (input, changesSettings) => {
        const mentions = input.some((item) => !(joining as ReadonlyArray<string>).includes(item.type));
        const expected = mentions ? { _tag: 'NamesSkillsPluginsOrApps' } : changesSettings ? { _tag: 'ChangesSettings' } : null;
        expect(unsteerableReason(input, changesSettings)).toEqual(expected);
        // Only the item types decide: reordering the items changes nothing.
        expect(unsteerableReason([...input].reverse(), changesSettings)).toEqual(expected);
      }),
    );
  });
});

describe('deliveryStep by example', () => {
  it('with no turn running, a steer and a queue both start a turn', () => {
    expect(deliveryStep(idleDelivery, submit('a', 'steer'))[1]).toEqual([{ _tag: 'StartTurn', messageId: 'a', delivered: 'started' }]);
    expect(deliveryStep(idleDelivery, submit('a', 'queue'))[1]).toEqual([{ _tag: 'StartTurn', messageId: 'a', delivered: 'started' }]);
  });

  it('a steer joins the running turn once its id is known', () => {
    const [waiting, none] = deliverySteps(idleDelivery, [submit('a', 'steer'), submit('b', 'steer')]);
    expect(none).toEqual([{ _tag: 'StartTurn', messageId: 'a', delivered: 'started' }]);
    expect(waiting.pendingSteers).toEqual(['b']);
    const [steering, steer] = deliveryStep(waiting, started('t1'));
    expect(steer).toEqual([{ _tag: 'SteerTurn', messageId: 'b', turnId: 't1' }]);
    expect(deliveryStep(steering, submit('c', 'steer'))[1]).toEqual([{ _tag: 'SteerTurn', messageId: 'c', turnId: 't1' }]);
    expect(deliveryStep(steering, answered('b', 'joined'))[0].steering).toEqual([]);
  });

  it('queued messages start their own turns one after the other, in order', () => {
    const [, commands] = deliverySteps(idleDelivery, [submit('a', 'steer'), started('t1'), submit('b', 'queue'), submit('c', 'queue'), ended, started('t2'), ended, started('t3'), ended]);
    expect(commands).toEqual([
      { _tag: 'StartTurn', messageId: 'a', delivered: 'started' },
      { _tag: 'StartTurn', messageId: 'b', delivered: 'queued' },
      { _tag: 'StartTurn', messageId: 'c', delivered: 'queued' },
    ]);
  });

  it('a seventeenth waiting message is refused; a steer that cannot join is refused with its reason', () => {
    const queue = Array.from({ length: MAX_WAITING_MESSAGES }, (_, i) => submit(`q${i}`, 'queue'));
    const [full] = deliverySteps(idleDelivery, [submit('a', 'steer'), started('t1'), ...queue]);
    expect(waitingCount(full)).toBe(MAX_WAITING_MESSAGES);
    expect(deliveryStep(full, submit('x', 'queue'))[1]).toEqual([{ _tag: 'Refuse', messageId: 'x', refusal: { _tag: 'QueueFull', limit: 16 } }]);
    expect(deliveryStep(full, submit('x', 'steer'))[1]).toEqual([{ _tag: 'Refuse', messageId: 'x', refusal: { _tag: 'QueueFull', limit: 16 } }]);
    const [running] = deliverySteps(idleDelivery, [submit('a', 'steer'), started('t1')]);
    expect(deliveryStep(running, submit('m', 'steer', mentions))[1]).toEqual([{ _tag: 'Refuse', messageId: 'm', refusal: { _tag: 'NotSteerable', reason: mentions } }]);
    expect(deliveryStep(running, submit('m', 'steer', { _tag: 'ChangesSettings' }))[1]).toEqual([{ _tag: 'Refuse', messageId: 'm', refusal: { _tag: 'NotSteerable', reason: { _tag: 'ChangesSettings' } } }]);
    // Queued, the same message waits for its own turn, where it applies.
    expect(deliveryStep(running, submit('m', 'queue', mentions))[1]).toEqual([]);
  });

  it('a steer that missed its turn (it ended meanwhile) starts the next turn, ahead of the queue', () => {
    const [missed, commands] = deliverySteps(idleDelivery, [submit('a', 'steer'), started('t1'), submit('q', 'queue'), submit('b', 'steer'), answered('b', 'missed')]);
    expect(commands.at(-1)).toEqual({ _tag: 'SteerTurn', messageId: 'b', turnId: 't1' });
    expect(missed.pendingSteers).toEqual(['b']);
    expect(deliverySteps(missed, [ended, started('t2'), ended])[1]).toEqual([
      { _tag: 'StartTurn', messageId: 'b', delivered: 'started' },
      { _tag: 'StartTurn', messageId: 'q', delivered: 'queued' },
    ]);
  });

  it('a stop cancels every waiting message in order and interrupts the running turn', () => {
    const [stopped, commands] = deliverySteps(idleDelivery, [submit('a', 'steer'), submit('p', 'steer'), submit('q1', 'queue'), submit('q2', 'queue'), stop]);
    expect(commands.slice(1)).toEqual([
      { _tag: 'Cancel', messageId: 'p' },
      { _tag: 'Cancel', messageId: 'q1' },
      { _tag: 'Cancel', messageId: 'q2' },
    ]);
    // Its id was not known at the stop: it is interrupted as soon as it is, and nothing starts after it.
    expect(deliverySteps(stopped, [started('t1'), ended])).toEqual([idleDelivery, [{ _tag: 'InterruptTurn', turnId: 't1' }]]);
  });

  it('a steer in flight at a stop that misses its turn is cancelled, not started', () => {
    const [, commands] = deliverySteps(idleDelivery, [submit('a', 'steer'), started('t1'), submit('b', 'steer'), stop, answered('b', 'missed'), ended]);
    expect(commands).toEqual([
      { _tag: 'StartTurn', messageId: 'a', delivered: 'started' },
      { _tag: 'SteerTurn', messageId: 'b', turnId: 't1' },
      { _tag: 'InterruptTurn', turnId: 't1' },
      { _tag: 'Cancel', messageId: 'b' },
    ]);
  });

  it('a message sent after a stop waits for the stopped turn to end, then starts one', () => {
    const [, commands] = deliverySteps(idleDelivery, [submit('a', 'steer'), started('t1'), stop, submit('b', 'steer'), ended]);
    expect(commands.at(-1)).toEqual({ _tag: 'StartTurn', messageId: 'b', delivered: 'started' });
  });
});

/** What a simulated host may do next; indices pick among what is possible at that moment. */
type Action =
  | { readonly _tag: 'submit'; readonly delivery: 'steer' | 'queue'; readonly unsteerable: boolean }
  | { readonly _tag: 'start' }
  | { readonly _tag: 'end' }
  | { readonly _tag: 'answer'; readonly index: number; readonly outcome: 'joined' | 'missed' | 'failed' }
  | { readonly _tag: 'stop' };

const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ _tag: fc.constant('submit' as const), delivery: fc.constantFrom('steer' as const, 'queue' as const), unsteerable: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ _tag: 'start' as const }) },
  { weight: 2, arbitrary: fc.constant({ _tag: 'end' as const }) },
  { weight: 3, arbitrary: fc.record({ _tag: fc.constant('answer' as const), index: fc.nat(20), outcome: fc.constantFrom('joined' as const, 'missed' as const, 'failed' as const) }) },
  { weight: 1, arbitrary: fc.constant({ _tag: 'stop' as const }) },
);

/** A conversation run the way the executor runs it, recording what every message became. */
function simulate(actions: ReadonlyArray<Action>) {
  let state: DeliveryState = idleDelivery;
  let turns = 0;
  let messages = 0;
  const answers = new Map<string, string[]>();
  const queuedSent: string[] = [];
  const queuedStarted: string[] = [];
  const cancelledOrRefused = new Set<string>();
  const violations: string[] = [];
  let stops = 0;
  const answer = (messageId: string, how: string): void => {
    answers.set(messageId, [...(answers.get(messageId) ?? []), how]);
  };
  const apply = (event: DeliveryEvent): ReadonlyArray<DeliveryCommand> => {
    const before = state;
    const [next, commands] = deliveryStep(state, event);
    state = next;
    if (waitingCount(state) > MAX_WAITING_MESSAGES) violations.push(`${waitingCount(state)} waiting`);
    for (const command of commands) {
      switch (command._tag) {
        case 'StartTurn':
          // One turn at a time: a turn starts only where none ran, or where the running one just ended.
          if (before.turn !== null && event._tag !== 'TurnEnded') violations.push(`a second turn started for ${command.messageId}`);
          answer(command.messageId, command.delivered);
          if (command.delivered === 'queued') queuedStarted.push(command.messageId);
          break;
        case 'Cancel':
          answer(command.messageId, 'cancelled');
          cancelledOrRefused.add(command.messageId);
          break;
        case 'Refuse':
          if (command.refusal._tag === 'QueueFull' && waitingCount(before) < MAX_WAITING_MESSAGES) violations.push('refused below the bound');
          answer(command.messageId, 'refused');
          cancelledOrRefused.add(command.messageId);
          break;
        case 'SteerTurn':
        case 'InterruptTurn':
          break;
      }
    }
    if (event._tag === 'Stop') {
      stops += 1;
      if (state.queued.length > 0 || state.pendingSteers.length > 0) violations.push('something still waits after a stop');
      const cancelled = commands.flatMap((command) => (command._tag === 'Cancel' ? [command.messageId] : []));
      if (JSON.stringify(cancelled) !== JSON.stringify([...before.pendingSteers, ...before.queued])) violations.push(`the stop cancelled ${cancelled.join(',')}`);
    }
    return commands;
  };
  const step = (action: Action): void => {
    switch (action._tag) {
      case 'submit': {
        const messageId = `m${(messages += 1)}`;
        const commands = apply(submit(messageId, action.delivery, action.unsteerable ? mentions : undefined));
        if (action.delivery === 'queue' && commands.length === 0) queuedSent.push(messageId);
        return;
      }
      case 'start':
        if (state.turn !== null && state.turn.turnId === null) apply(started(`t${(turns += 1)}`));
        return;
      case 'end':
        if (state.turn !== null) apply(ended);
        return;
      case 'answer': {
        const steer = state.steering[action.index % Math.max(1, state.steering.length)];
        if (steer === undefined) return;
        // Codex answers `missed` only when the turn is no longer the active one; the executor's view may lag.
        if (action.outcome !== 'missed') answer(steer.messageId, action.outcome === 'joined' ? 'steered' : 'failed');
        apply(answered(steer.messageId, action.outcome));
        return;
      }
      case 'stop':
        apply(stop);
        return;
    }
  };
  actions.forEach(step);
  // Drain: answer every steer, start and end every turn, until nothing runs or waits.
  for (let guard = 0; guard < 1000 && (state.turn !== null || state.steering.length > 0); guard += 1) {
    const steer = state.steering[0];
    if (steer !== undefined) {
      answer(steer.messageId, 'steered');
      apply(answered(steer.messageId, 'joined'));
    } else if (state.turn?.turnId === null) apply(started(`t${(turns += 1)}`));
    else apply(ended);
  }
  return { state, messages, answers, queuedSent, queuedStarted, cancelledOrRefused, violations, stops };
}

describe('deliveryStep properties', () => {
  const runs = { numRuns: 400 };

  it('every message is answered exactly once, and afterwards nothing runs or waits', () => {
    fc.assert(
      fc.property(fc.array(actionArbitrary, { maxLength: 80 }), (actions) => {
        const run = simulate(actions);
        expect(run.violations).toEqual([]);
        expect(run.state).toEqual(idleDelivery);
        for (let n = 1; n <= run.messages; n += 1) expect(run.answers.get(`m${n}`)).toHaveLength(1);
      }),
      runs,
    );
  });

  it('queued messages start their turns in the order they were sent (less those cancelled by a stop)', () => {
    fc.assert(
      fc.property(fc.array(actionArbitrary, { maxLength: 80 }), (actions) => {
        const run = simulate(actions);
        expect(run.queuedStarted).toEqual(run.queuedSent.filter((id) => !run.cancelledOrRefused.has(id)));
      }),
      runs,
    );
  });

  it('the bound is kept: past sixteen waiting every further message is refused, and none below', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.array(fc.constantFrom('steer' as const, 'queue' as const), { minLength: 1, maxLength: 40 }), (extra, deliveries) => {
        const [running] = deliverySteps(idleDelivery, [submit('first', 'steer')]);
        const [, commands] = deliverySteps(
          running,
          deliveries.slice(0, MAX_WAITING_MESSAGES + extra).map((delivery, i) => submit(`m${i}`, delivery)),
        );
        const refused = commands.filter((command) => command._tag === 'Refuse');
        expect(refused.length).toBe(Math.max(0, Math.min(deliveries.length, MAX_WAITING_MESSAGES + extra) - MAX_WAITING_MESSAGES));
      }),
      runs,
    );
  });

  it('a stop cancels every waiting message, in order, and nothing waits after it', () => {
    fc.assert(
      fc.property(fc.array(actionArbitrary, { maxLength: 80 }), fc.array(actionArbitrary, { maxLength: 20 }), (before, after) => {
        const run = simulate([...before, { _tag: 'stop' }, ...after]);
        expect(run.stops).toBeGreaterThan(0);
        expect(run.violations).toEqual([]);
      }),
      runs,
    );
  });
});
