import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admitInbound, initialGateState, longRunningRequestsInFlight, recordOutbound, refusalReplyId, shortRequestsInFlight } from '../src/index.js';
import type { GateDecision } from '../src/InboundGate.js';
import type { GateState, JsonRpcId } from '../src/index.js';

const MAX = 3;

/** The model: which peer requests are in flight (by id as text, with whether cancelled), which of ours are awaited. */
interface Model {
  inFlight: Map<string, boolean>;
  awaiting: Set<string>;
  /** Each delivered request (id and how many were delivered before it) and the answers it got. */
  answers: Map<string, number>;
  /** The delivery of each id in flight, as a key of `answers`. */
  delivery: Map<string, string>;
  budget: boolean;
}
interface Real {
  state: GateState;
}

const ids = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }).map(String));
const exact = (id: JsonRpcId): string => `${typeof id}:${String(id)}`;

class PeerRequest implements fc.Command<Model, Real> {
  constructor(readonly id: JsonRpcId) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const step = admitInbound(real.state, { id: this.id, method: 'm' }, MAX, model.budget);
    const key = String(this.id);
    const expected: GateDecision['_tag'] = model.inFlight.has(key) ? 'Duplicate' : model.inFlight.size >= MAX || !model.budget ? 'Overloaded' : 'Deliver';
    expect(step.decision._tag).toBe(expected);
    if (expected === 'Deliver') {
      model.inFlight.set(key, false);
      const delivery = `${key}#${model.answers.size}`;
      model.answers.set(delivery, 0);
      model.delivery.set(key, delivery);
    }
    real.state = step.state;
    expect(real.state.inFlight.size).toBeLessThanOrEqual(MAX);
  }
  toString = (): string => `request ${JSON.stringify(this.id)}`;
}

class AnswerWritten implements fc.Command<Model, Real> {
  constructor(readonly id: JsonRpcId) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    real.state = recordOutbound(real.state, { id: this.id, result: null });
    const key = String(this.id);
    if (model.inFlight.delete(key)) {
      const delivery = model.delivery.get(key) ?? '';
      model.answers.set(delivery, (model.answers.get(delivery) ?? 0) + 1);
      model.delivery.delete(key);
    }
    expect([...real.state.inFlight.keys()].sort()).toEqual([...model.inFlight.keys()].sort());
  }
  toString = (): string => `answer ${JSON.stringify(this.id)}`;
}

class OurRequest implements fc.Command<Model, Real> {
  constructor(readonly id: number) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    real.state = recordOutbound(real.state, { id: this.id, method: 'card/show' });
    model.awaiting.add(exact(this.id));
  }
  toString = (): string => `we ask ${this.id}`;
}

class PeerResponse implements fc.Command<Model, Real> {
  constructor(readonly id: JsonRpcId | null) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const step = admitInbound(real.state, { id: this.id, result: {} }, MAX, model.budget);
    const known = this.id !== null && model.awaiting.delete(exact(this.id));
    expect(step.decision).toEqual(known ? { _tag: 'Deliver' } : { _tag: 'Drop', reason: 'UnknownResponse' });
    real.state = step.state;
  }
  toString = (): string => `peer answers ${JSON.stringify(this.id)}`;
}

class PeerCancel implements fc.Command<Model, Real> {
  constructor(readonly params: unknown) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    const step = admitInbound(real.state, { method: '$/cancelRequest', params: this.params }, MAX, model.budget);
    const id = (this.params as { id?: unknown } | null)?.id;
    const key = typeof id === 'string' || typeof id === 'number' ? String(id) : null;
    const deliver = key !== null && model.inFlight.get(key) === false;
    expect(step.decision._tag).toBe(deliver ? 'Deliver' : 'Drop');
    if (deliver) model.inFlight.set(key, true);
    real.state = step.state;
    expect(real.state.inFlight.size).toBe(model.inFlight.size);
  }
  toString = (): string => `cancel ${JSON.stringify(this.params)}`;
}

/** A message refused before the gate that carries a readable id: answered with it only when no request with that id is in flight. */
class MalformedRequest implements fc.Command<Model, Real> {
  constructor(readonly id: JsonRpcId) {}
  check = (): boolean => true;
  run(model: Model, real: Real): void {
    expect(refusalReplyId(real.state, this.id)).toBe(model.inFlight.has(String(this.id)) ? null : this.id);
    expect(refusalReplyId(real.state, null)).toBeNull();
  }
  toString = (): string => `malformed request ${JSON.stringify(this.id)}`;
}

class Budget implements fc.Command<Model, Real> {
  constructor(readonly room: boolean) {}
  check = (): boolean => true;
  run(model: Model): void {
    model.budget = this.room;
  }
  toString = (): string => `budget ${this.room}`;
}

describe('the inbound gate', () => {
  it('admits at most the bound, refuses duplicates of what is in flight, forwards only awaited responses and one cancel per request', () => {
    const commands = [
      ids.map((id) => new PeerRequest(id)),
      ids.map((id) => new AnswerWritten(id)),
      fc.integer({ min: 0, max: 4 }).map((id) => new OurRequest(id)),
      fc.oneof(ids, fc.constant(null)).map((id) => new PeerResponse(id)),
      fc.oneof(ids.map((id) => ({ id })), fc.constant(null), fc.constant({}), fc.constant({ id: null })).map((params) => new PeerCancel(params)),
      fc.boolean().map((room) => new Budget(room)),
      ids.map((id) => new MalformedRequest(id)),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 60 }), (cmds) => {
        const model: Model = { inFlight: new Map(), awaiting: new Set(), answers: new Map(), delivery: new Map(), budget: true };
        fc.modelRun(() => ({ model, real: { state: initialGateState } }), cmds);
        // Every delivered request settled at most once: a second answer for its id found nothing in flight.
        const stillInFlight = new Set(model.delivery.values());
        for (const [delivery, count] of model.answers) expect(count, delivery).toBe(stillInFlight.has(delivery) ? 0 : 1);
      }),
      { numRuns: 500 },
    );
  });

  it('compares peer ids as text and our ids exactly', () => {
    const delivered = admitInbound(initialGateState, { id: 1, method: 'm' }, MAX, true);
    expect(admitInbound(delivered.state, { id: '1', method: 'm' }, MAX, true).decision).toEqual({ _tag: 'Duplicate', id: '1' });
    const asked = recordOutbound(initialGateState, { id: 0, method: 'card/show' });
    expect(admitInbound(asked, { id: '0', result: {} }, MAX, true).decision).toEqual({ _tag: 'Drop', reason: 'UnknownResponse' });
    expect(admitInbound(asked, { id: 0, error: { code: 1, message: 'no' } }, MAX, true).decision).toEqual({ _tag: 'Deliver' });
  });

  it('bounds long-running requests apart: they never spend the short bound or the budget, nor exceed their own', () => {
    const longRunning = { isLongRunning: (method: string) => method === 'long', max: 3 };
    fc.assert(
      fc.property(fc.array(fc.record({ long: fc.boolean(), answer: fc.boolean() }), { maxLength: 40 }), (steps) => {
        let state = initialGateState;
        let nextId = 0;
        const open: Array<{ id: number; long: boolean }> = [];
        for (const step of steps) {
          if (step.answer && open.length > 0) {
            const settled = open.shift();
            if (settled !== undefined) state = recordOutbound(state, { id: settled.id, result: {} });
            continue;
          }
          const id = nextId++;
          const shortOpen = open.filter((request) => !request.long).length;
          const longOpen = open.length - shortOpen;
          const admitted = admitInbound(state, { id, method: step.long ? 'long' : 'short' }, MAX, true, longRunning);
          const fits = step.long ? longOpen < longRunning.max : shortOpen < MAX;
          expect(admitted.decision._tag).toBe(fits ? 'Deliver' : 'Overloaded');
          state = admitted.state;
          if (fits) open.push({ id, long: step.long });
          expect(shortRequestsInFlight(state)).toBe(open.filter((request) => !request.long).length);
        }
      }),
      { numRuns: 300 },
    );
    // A spent budget refuses short requests only.
    expect(admitInbound(initialGateState, { id: 1, method: 'long' }, MAX, false, longRunning).decision).toEqual({ _tag: 'Deliver' });
    expect(admitInbound(initialGateState, { id: 1, method: 'short' }, MAX, false, longRunning).decision).toEqual({ _tag: 'Overloaded', id: 1 });
  });

  it('spends a shared budget per class: a spent long-running budget refuses long-running requests only, and each class counts its own', () => {
    const longRunning = { isLongRunning: (method: string) => method === 'long', max: 3 };
    fc.assert(
      fc.property(fc.array(fc.record({ long: fc.boolean(), answer: fc.boolean(), shortRoom: fc.boolean(), longRoom: fc.boolean() }), { maxLength: 40 }), (steps) => {
        let state = initialGateState;
        let nextId = 0;
        const open: Array<{ id: number; long: boolean }> = [];
        for (const step of steps) {
          if (step.answer && open.length > 0) {
            const settled = open.shift();
            if (settled !== undefined) state = recordOutbound(state, { id: settled.id, result: {} });
          } else {
            const id = nextId++;
            const shortOpen = open.filter((request) => !request.long).length;
            const longOpen = open.length - shortOpen;
            const admitted = admitInbound(state, { id, method: step.long ? 'long' : 'short' }, MAX, { short: step.shortRoom, longRunning: step.longRoom }, longRunning);
            const fits = step.long ? longOpen < longRunning.max && step.longRoom : shortOpen < MAX && step.shortRoom;
            expect(admitted.decision).toEqual(fits ? { _tag: 'Deliver' } : { _tag: 'Overloaded', id });
            state = admitted.state;
            if (fits) open.push({ id, long: step.long });
          }
          expect(shortRequestsInFlight(state)).toBe(open.filter((request) => !request.long).length);
          expect(longRunningRequestsInFlight(state)).toBe(open.filter((request) => request.long).length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
