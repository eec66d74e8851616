import * as E from 'fp-ts/lib/Either.js';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assembleInventory,
  bundledPackageOf,
  bundledPackagesOf,
  emptyUpdateState,
  pluginKey,
  requestUpdate,
  resumeSync,
  uninstallRecorded,
  uninstallRequested,
  updateFinished,
  updateStateOf,
  type BundledUpdateState,
  type PluginRef,
  type StatusChange,
  type UpdateOutcome,
} from '../src/index.js';
import { UNINSTALLED_REASON } from '../src/BundledUpdates.js';
import { pluginRefArbitrary } from '../src/testing.js';

const space = { name: 'wework-space', marketplace: 'wework' } as PluginRef;

/** One input of the machine, for one of a few plugins. */
type Input =
  | { readonly _tag: 'request'; readonly ref: PluginRef; readonly version: string }
  | { readonly _tag: 'finish'; readonly ref: PluginRef; readonly outcome: UpdateOutcome }
  | { readonly _tag: 'uninstall'; readonly ref: PluginRef }
  | { readonly _tag: 'resume'; readonly ref: PluginRef };

const inputArbitrary = (refs: ReadonlyArray<PluginRef>): fc.Arbitrary<Input> => {
  const ref = fc.constantFrom(...refs);
  const version = fc.constantFrom('1.0.0', '2.0.0');
  const outcome: fc.Arbitrary<UpdateOutcome> = fc.oneof(
    version.map((v) => ({ _tag: 'Succeeded' as const, version: v })),
    fc.constant({ _tag: 'Skipped' as const }),
    fc.record({ _tag: fc.constant('Failed' as const), reason: fc.constantFrom('TransactionRolledBack', 'PackageRefused'), version: fc.option(version, { nil: null }) }),
  );
  return fc.oneof(
    fc.record({ _tag: fc.constant('request' as const), ref, version }),
    fc.record({ _tag: fc.constant('finish' as const), ref, outcome }),
    fc.record({ _tag: fc.constant('uninstall' as const), ref }),
    fc.record({ _tag: fc.constant('resume' as const), ref }),
  );
};

/** Runs the inputs; returns every state, the admissions and the announced changes. */
const run = (inputs: ReadonlyArray<Input>) => {
  let state: BundledUpdateState = emptyUpdateState;
  const states: BundledUpdateState[] = [state];
  const changes: StatusChange[] = [];
  const steps: Array<{ readonly input: Input; readonly before: BundledUpdateState; readonly after: BundledUpdateState; readonly decision: unknown; readonly change: StatusChange | null }> = [];
  for (const input of inputs) {
    const before = state;
    let decision: unknown = null;
    let change: StatusChange | null = null;
    if (input._tag === 'request') ({ state, decision, change } = requestUpdate(state, input.ref, input.version));
    else if (input._tag === 'finish') ({ state, decision, change } = updateFinished(state, input.ref, input.outcome));
    else if (input._tag === 'uninstall') ({ state, decision, change } = uninstallRequested(state, input.ref));
    else state = resumeSync(state, input.ref);
    if (change !== null) changes.push(change);
    steps.push({ input, before, after: state, decision, change });
    states.push(state);
  }
  return { state, states, changes, steps };
};

const refsArbitrary = fc.uniqueArray(pluginRefArbitrary, { minLength: 1, maxLength: 3, selector: pluginKey });
const scenario = refsArbitrary.chain((refs) => fc.tuple(fc.constant(refs), fc.array(inputArbitrary(refs), { maxLength: 40 })));

describe('the bundled update state machine', () => {
  it('admits at most one check per plugin at a time: a request while updating is AlreadyUpdating', () => {
    fc.assert(
      fc.property(scenario, ([, inputs]) => {
        for (const step of run(inputs).steps) {
          if (step.input._tag !== 'request') continue;
          const before = updateStateOf(step.before, step.input.ref);
          if (before.status.kind === 'updating' && !before.paused) expect(step.decision).toEqual({ _tag: 'AlreadyUpdating' });
          if (step.decision !== null && (step.decision as { _tag: string })._tag === 'Admitted') expect(before.status.kind).not.toBe('updating');
        }
      }),
    );
  });

  it('never admits a check of a paused (user-uninstalled) plugin until it is resumed', () => {
    fc.assert(
      fc.property(scenario, ([, inputs]) => {
        for (const step of run(inputs).steps) {
          if (step.input._tag !== 'request') continue;
          if (updateStateOf(step.before, step.input.ref).paused) {
            expect(step.decision).toEqual({ _tag: 'Paused' });
            expect(step.after).toBe(step.before);
          }
        }
      }),
    );
  });

  it('an uninstall pauses the plugin and waits exactly when a check is running', () => {
    fc.assert(
      fc.property(scenario, ([, inputs]) => {
        for (const step of run(inputs).steps) {
          if (step.input._tag !== 'uninstall') continue;
          const updating = updateStateOf(step.before, step.input.ref).status.kind === 'updating';
          expect(step.decision).toEqual(updating ? { _tag: 'WaitForUpdate' } : { _tag: 'Proceed' });
          expect(updateStateOf(step.after, step.input.ref).paused).toBe(true);
          expect(updateStateOf(step.after, step.input.ref).status.kind).not.toBe('updateFailed');
        }
      }),
    );
  });

  it('only the plugin an input names changes', () => {
    fc.assert(
      fc.property(scenario, ([refs, inputs]) => {
        for (const step of run(inputs).steps) {
          for (const ref of refs) {
            if (pluginKey(ref) === pluginKey(step.input.ref)) continue;
            expect(updateStateOf(step.after, ref)).toEqual(updateStateOf(step.before, ref));
          }
        }
      }),
    );
  });

  it('announces every change of a visible status, and only changes, for the plugin that changed', () => {
    fc.assert(
      fc.property(scenario, ([, inputs]) => {
        for (const step of run(inputs).steps) {
          const before = updateStateOf(step.before, step.input.ref).status;
          const after = updateStateOf(step.after, step.input.ref).status;
          const changed = JSON.stringify(before) !== JSON.stringify(after);
          expect(step.change !== null).toBe(changed);
          if (step.change !== null) {
            expect(step.change.pluginId).toBe(pluginKey(step.input.ref));
            expect(step.change.status).toEqual(after);
          }
        }
      }),
    );
  });

  it('a finish ends an admitted check: Succeeded → ok, Failed → updateFailed with its reason, Skipped (uninstalled) → updateFailed Uninstalled and paused; a finish without a check changes nothing', () => {
    fc.assert(
      fc.property(scenario, ([, inputs]) => {
        for (const step of run(inputs).steps) {
          if (step.input._tag !== 'finish') continue;
          const before = updateStateOf(step.before, step.input.ref);
          const after = updateStateOf(step.after, step.input.ref);
          const outcome = step.input.outcome;
          if (before.status.kind !== 'updating') expect(step.after).toBe(step.before);
          else {
            expect(after.status).toEqual(
              outcome._tag === 'Succeeded' ? { kind: 'ok' } : { kind: 'updateFailed', reason: outcome._tag === 'Failed' ? outcome.reason : UNINSTALLED_REASON },
            );
            expect(after.paused).toBe(before.paused || outcome._tag === 'Skipped');
          }
        }
      }),
    );
  });

  it('no change ever reports ok after a Skipped check or from a recorded uninstall', () => {
    fc.assert(
      fc.property(scenario, ([, inputs]) => {
        for (const step of run(inputs).steps) {
          if (step.input._tag === 'finish' && step.input.outcome._tag === 'Skipped') expect(step.change?.status.kind).not.toBe('ok');
          if (step.input._tag === 'request') expect(step.change === null || step.change.status.kind === 'updating').toBe(true);
        }
      }),
    );
  });

  it('request → finish(Failed) → request (a retry) is admitted again and succeeds', () => {
    const admitted = requestUpdate(emptyUpdateState, space, '2.0.0');
    expect(admitted.decision).toEqual({ _tag: 'Admitted' });
    expect(admitted.change).toEqual({ pluginId: 'wework-space@wework', status: { kind: 'updating' }, version: '2.0.0' });
    const failed = updateFinished(admitted.state, space, { _tag: 'Failed', reason: 'TransactionRolledBack', version: '1.0.0' });
    expect(failed.change).toEqual({ pluginId: 'wework-space@wework', status: { kind: 'updateFailed', reason: 'TransactionRolledBack' }, version: '1.0.0' });
    const retried = requestUpdate(failed.state, space, '2.0.0');
    expect(retried.decision).toEqual({ _tag: 'Admitted' });
    const done = updateFinished(retried.state, space, { _tag: 'Succeeded', version: '2.0.0' });
    expect(updateStateOf(done.state, space)).toEqual({ status: { kind: 'ok' }, paused: false });
  });

  it('uninstall while updating waits, then stays paused across finishes until resumed', () => {
    const admitted = requestUpdate(emptyUpdateState, space, '2.0.0').state;
    const uninstalling = uninstallRequested(admitted, space);
    expect(uninstalling.decision).toEqual({ _tag: 'WaitForUpdate' });
    const finished = updateFinished(uninstalling.state, space, { _tag: 'Skipped' }).state;
    expect(requestUpdate(finished, space, '2.0.0').decision).toEqual({ _tag: 'Paused' });
    expect(requestUpdate(resumeSync(finished, space), space, '2.0.0').decision).toEqual({ _tag: 'Admitted' });
  });
});

/**
 * The executor over its disk, across restarts, as a model: the disk holds each plugin `installed`,
 * `uninstalled` (the sync manifest's tombstone: the user uninstalled it) or `absent`; the machine's
 * state is lost at every restart and rebuilt from the tombstones. The executor feeds the machine as
 * the desktop executor does: a check's outcome comes from the disk, an uninstall says whether the
 * plugin is installed and its pause follows the tombstone the removal committed (or not, when the
 * disk was full), an explicit install resumes and checks.
 */
type DiskState = 'installed' | 'uninstalled' | 'absent';
type WorldEvent =
  | { readonly _tag: 'restart' }
  | { readonly _tag: 'check'; readonly ref: PluginRef }
  | { readonly _tag: 'finish'; readonly ref: PluginRef; readonly fails: boolean }
  | { readonly _tag: 'uninstall'; readonly ref: PluginRef; readonly diskFull: boolean }
  | { readonly _tag: 'install'; readonly ref: PluginRef; readonly diskFull: boolean };

const worldEventArbitrary = (refs: ReadonlyArray<PluginRef>): fc.Arbitrary<WorldEvent> => {
  const ref = fc.constantFrom(...refs);
  return fc.oneof(
    fc.constant({ _tag: 'restart' as const }),
    fc.record({ _tag: fc.constant('check' as const), ref }),
    fc.record({ _tag: fc.constant('finish' as const), ref, fails: fc.boolean() }),
    fc.record({ _tag: fc.constant('uninstall' as const), ref, diskFull: fc.boolean() }),
    fc.record({ _tag: fc.constant('install' as const), ref, diskFull: fc.boolean() }),
  );
};

/** Runs the world; calls `announced` with the disk as it is when each change is sent. */
const runWorld = (
  refs: ReadonlyArray<PluginRef>,
  events: ReadonlyArray<WorldEvent>,
  observe: (observation: { readonly event: WorldEvent; readonly state: BundledUpdateState; readonly disk: ReadonlyMap<string, DiskState>; readonly refused: boolean }) => void,
  announced: (change: StatusChange, disk: ReadonlyMap<string, DiskState>) => void,
): void => {
  const disk = new Map<string, DiskState>(refs.map((ref) => [pluginKey(ref), 'absent']));
  const diskOf = (ref: PluginRef): DiskState => disk.get(pluginKey(ref)) ?? 'absent';
  let state: BundledUpdateState = emptyUpdateState;
  let running = new Set<string>();
  const apply = <D>(transition: { readonly state: BundledUpdateState; readonly decision: D; readonly change: StatusChange | null }): D => {
    state = transition.state;
    if (transition.change !== null) announced(transition.change, disk);
    return transition.decision;
  };
  /** Returns whether the check was refused (the plugin is paused). */
  const check = (ref: PluginRef): boolean => {
    const decision = apply(requestUpdate(state, ref, '2.0.0'));
    if (decision._tag === 'Admitted') running.add(pluginKey(ref));
    return decision._tag === 'Paused';
  };
  const finish = (ref: PluginRef, fails: boolean): void => {
    if (!running.delete(pluginKey(ref))) return;
    let outcome: UpdateOutcome;
    if (diskOf(ref) === 'uninstalled') outcome = { _tag: 'Skipped' };
    else if (fails) outcome = { _tag: 'Failed', reason: 'TransactionRolledBack', version: null };
    else {
      disk.set(pluginKey(ref), 'installed');
      outcome = { _tag: 'Succeeded', version: '2.0.0' };
    }
    apply(updateFinished(state, ref, outcome));
  };
  /** The pause follows the disk once an uninstall ended (the executor reads the manifest). */
  const pauseFromDisk = (ref: PluginRef): void => {
    if (diskOf(ref) === 'uninstalled') apply(uninstallRecorded(state, ref));
    else state = resumeSync(state, ref);
  };
  for (const event of events) {
    let refused = false;
    if (event._tag === 'restart') {
      // A check running at the crash is rolled back by recovery: the disk keeps what it had.
      running = new Set();
      state = emptyUpdateState;
      for (const ref of refs) if (diskOf(ref) === 'uninstalled') apply(uninstallRecorded(state, ref));
    } else if (event._tag === 'check') refused = check(event.ref);
    else if (event._tag === 'finish') finish(event.ref, event.fails);
    else if (event._tag === 'uninstall') {
      const gate = apply(uninstallRequested(state, event.ref, diskOf(event.ref) === 'installed'));
      if (gate._tag === 'WaitForUpdate') finish(event.ref, false);
      // The removal and its tombstone are one transaction: a full disk leaves the plugin as it was.
      if (diskOf(event.ref) === 'installed' && !event.diskFull) disk.set(pluginKey(event.ref), 'uninstalled');
      pauseFromDisk(event.ref);
    } else if (!event.diskFull) {
      disk.set(pluginKey(event.ref), 'installed');
      state = resumeSync(state, event.ref);
      check(event.ref);
    }
    observe({ event, state, disk, refused });
  }
};

const worldScenario = refsArbitrary.chain((refs) => fc.tuple(fc.constant(refs), fc.array(worldEventArbitrary(refs), { maxLength: 60 })));

describe('the bundled update state machine over restarts (a model of the executor and its disk)', () => {
  it('no status change ever reports ok for a plugin that is not installed', () => {
    fc.assert(
      fc.property(worldScenario, ([refs, events]) => {
        runWorld(
          refs,
          events,
          () => undefined,
          (change, disk) => {
            if (change.status.kind === 'ok') expect(disk.get(change.pluginId)).toBe('installed');
          },
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a plugin the user uninstalled stays paused after any number of restarts until an explicit install: its checks are refused and announce nothing', () => {
    fc.assert(
      fc.property(worldScenario, ([refs, events]) => {
        runWorld(
          refs,
          events,
          ({ event, state, disk, refused }) => {
            for (const ref of refs) expect(updateStateOf(state, ref).paused).toBe(disk.get(pluginKey(ref)) === 'uninstalled');
            if (event._tag === 'check') expect(refused).toBe(disk.get(pluginKey(event.ref)) === 'uninstalled');
          },
          () => undefined,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('uninstall, restart twice, retry: refused each time with no change; an explicit install resumes the checks', () => {
    const events: WorldEvent[] = [
      { _tag: 'check', ref: space },
      { _tag: 'finish', ref: space, fails: false },
      { _tag: 'uninstall', ref: space, diskFull: false },
      { _tag: 'restart' },
      { _tag: 'check', ref: space },
      { _tag: 'restart' },
      { _tag: 'check', ref: space },
      { _tag: 'install', ref: space, diskFull: false },
      { _tag: 'finish', ref: space, fails: false },
    ];
    const refusals: boolean[] = [];
    const changes: Array<readonly [string, string]> = [];
    runWorld(
      [space],
      events,
      ({ event, refused }) => {
        if (event._tag === 'check') refusals.push(refused);
      },
      (change) => changes.push([change.status.kind, String(change.version)]),
    );
    expect(refusals).toEqual([false, true, true]);
    expect(changes).toEqual([
      ['updating', '2.0.0'],
      ['ok', '2.0.0'],
      ['updating', '2.0.0'],
      ['ok', '2.0.0'],
    ]);
  });

  it('an uninstall the full disk refused leaves the plugin installed and its synchronisation running, also after a restart', () => {
    const observed: Array<{ readonly paused: boolean; readonly disk: DiskState | undefined }> = [];
    runWorld(
      [space],
      [
        { _tag: 'check', ref: space },
        { _tag: 'finish', ref: space, fails: false },
        { _tag: 'uninstall', ref: space, diskFull: true },
        { _tag: 'restart' },
      ],
      ({ state, disk }) => observed.push({ paused: updateStateOf(state, space).paused, disk: disk.get(pluginKey(space)) }),
      () => undefined,
    );
    expect(observed.slice(2)).toEqual([
      { paused: false, disk: 'installed' },
      { paused: false, disk: 'installed' },
    ]);
  });
});

describe('recorded uninstalls and uninstalls of a plugin that is not installed', () => {
  it('uninstallRecorded pauses without announcing; a check then is Paused and changes nothing', () => {
    const recorded = uninstallRecorded(emptyUpdateState, space);
    expect(recorded.change).toBeNull();
    expect(updateStateOf(recorded.state, space)).toEqual({ status: { kind: 'ok' }, paused: true });
    const retried = requestUpdate(recorded.state, space, '2.0.0');
    expect(retried).toEqual({ state: recorded.state, decision: { _tag: 'Paused' }, change: null });
    expect(uninstallRecorded(recorded.state, space).state).toBe(recorded.state);
  });

  it('a check that finds the plugin uninstalled ends updateFailed Uninstalled (never ok) and pauses it', () => {
    const admitted = requestUpdate(emptyUpdateState, space, '2.0.0').state;
    const skipped = updateFinished(admitted, space, { _tag: 'Skipped' });
    expect(skipped.change).toEqual({ pluginId: 'wework-space@wework', status: { kind: 'updateFailed', reason: 'Uninstalled' }, version: null });
    expect(requestUpdate(skipped.state, space, '2.0.0').decision).toEqual({ _tag: 'Paused' });
  });

  it('the uninstall of a plugin that is not installed leaves a failed status alone (no ok), but still waits for a running check', () => {
    const failed = updateFinished(requestUpdate(emptyUpdateState, space, '2.0.0').state, space, { _tag: 'Failed', reason: 'PackageRefused', version: null }).state;
    expect(uninstallRequested(failed, space, false)).toEqual({ state: failed, decision: { _tag: 'Proceed' }, change: null });
    const running = requestUpdate(failed, space, '2.0.0').state;
    const waiting = uninstallRequested(running, space, false);
    expect(waiting.decision).toEqual({ _tag: 'WaitForUpdate' });
    expect(updateStateOf(waiting.state, space).paused).toBe(true);
  });
});

describe('bundled packages', () => {
  it('decodes name and version; never throws on arbitrary JSON', () => {
    expect(bundledPackageOf({ name: 'wework-space', version: '1.2.0', skills: './skills/' }, 'wework')).toEqual(E.right({ ref: space, version: '1.2.0' }));
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const decoded = bundledPackageOf(json, 'wework');
        if (E.isRight(decoded)) expect(decoded.right.ref.marketplace).toBe('wework');
      }),
    );
  });

  it('says why an entry is skipped', () => {
    const reason = (manifest: unknown) => E.getOrElseW((error: { reason: string }) => error.reason)(E.map(() => 'ok')(bundledPackageOf(manifest, 'wework')));
    expect(reason(undefined)).toBe('ManifestUnreadable');
    expect(reason([1])).toBe('InvalidManifest');
    expect(reason({ name: 3 })).toBe('InvalidManifest');
    expect(reason({ version: '1.0.0' })).toBe('MissingName');
    expect(reason({ name: 'x' })).toBe('MissingVersion');
    expect(reason({ name: '../x', version: '1.0.0' })).toBe('InvalidName');
  });

  it('keeps the first package of a plugin and reports later ones as duplicates, by index', () => {
    const decoded = bundledPackagesOf([{ name: 'wework-space', version: '1.0.0' }, { name: 'bad' }, { name: 'wework-space', version: '2.0.0' }], 'wework');
    expect(decoded.packages).toEqual([{ index: 0, bundled: { ref: space, version: '1.0.0' } }]);
    expect(decoded.rejected.map((entry) => [entry.index, entry.error.reason])).toEqual([
      [1, 'MissingVersion'],
      [2, 'Duplicate'],
    ]);
  });

  it('updating shows in the inventory over a failed update', () => {
    const listed = { ref: space, enabled: false, version: '1.0.0', description: null, presentation: null };
    const sources = { listed: [listed], configured: [], cloud: [], failedUpdates: [{ ref: space, reason: 'TransactionRolledBack' }], receipts: [] };
    expect(assembleInventory(sources, 0).plugins[0]?.status).toEqual({ kind: 'updateFailed', reason: 'TransactionRolledBack' });
    expect(assembleInventory({ ...sources, updating: [space] }, 0).plugins[0]).toMatchObject({ status: { kind: 'updating' }, enabled: false });
  });
});
