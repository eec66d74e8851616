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
  uninstallRequested,
  updateFinished,
  updateStateOf,
  type BundledUpdateState,
  type PluginRef,
  type StatusChange,
  type UpdateOutcome,
} from '../src/index.js';
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

  it('a finish ends an admitted check: Failed → updateFailed with its reason, otherwise ok; a finish without a check changes nothing', () => {
    fc.assert(
      fc.property(scenario, ([, inputs]) => {
        for (const step of run(inputs).steps) {
          if (step.input._tag !== 'finish') continue;
          const before = updateStateOf(step.before, step.input.ref);
          const after = updateStateOf(step.after, step.input.ref);
          if (before.status.kind !== 'updating') expect(step.after).toBe(step.before);
          else expect(after.status).toEqual(step.input.outcome._tag === 'Failed' ? { kind: 'updateFailed', reason: step.input.outcome.reason } : { kind: 'ok' });
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
