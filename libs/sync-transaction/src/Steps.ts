/**
 * A plan as the ordered list of steps that carries it out, with the journal that describes it.
 *
 * Pure: a plan, a transaction id and the directories to create in; steps out. The order is the
 * protocol: journal (`prepared`) → create missing directories → stage every destination beside it
 * (new content, and a copy of each replaced file as its backup) → flush → publish by renames (old →
 * backup, staged → destination) → journal (`committed`, the commit mark) → cleanup (delete backups)
 * → delete the journal. A failure before the commit mark is rolled back; after it, only cleanup is
 * left, and recovery finishes it.
 */
import { pluginKey } from '@wework/plugin-inventory';
import type { ValidPackage } from './Package.js';
import { baseNameOf, joinPath, parentOf } from './internal/Paths.js';
import { layoutOf, type Homes } from './Layout.js';
import type { Journal, JournalPublication } from './Journal.js';
import type { Plan } from './Plan.js';

/** One step of a transaction. */
export type Step =
  | { readonly _tag: 'WriteJournal'; readonly journal: Journal }
  | { readonly _tag: 'MakeDirectory'; readonly path: string }
  | { readonly _tag: 'StageDirectory'; readonly stage: string; readonly package: ValidPackage }
  | { readonly _tag: 'StageFile'; readonly path: string; readonly bytes: Uint8Array; readonly mode: number }
  | { readonly _tag: 'Flush'; readonly roots: ReadonlyArray<string> }
  | { readonly _tag: 'Rename'; readonly from: string; readonly to: string }
  | { readonly _tag: 'Remove'; readonly path: string };

/** The steps of a transaction and the journal that lets recovery finish or undo them. */
export interface TransactionSteps {
  readonly txid: string;
  readonly journalPath: string;
  /** The `prepared` journal (written by the first step). */
  readonly journal: Journal;
  readonly steps: ReadonlyArray<Step>;
  /** Index of the step that writes the commit mark; steps before it are rolled back on failure. */
  readonly commitIndex: number;
}

const beside = (dest: string, suffix: string): string => joinPath(parentOf(dest), `.${baseNameOf(dest)}.${suffix}`);

/**
 * The steps of `plan` as transaction `txid`. `createdDirectories` are the missing parents of the
 * destinations, parents first.
 */
export const stepsOf = (homes: Homes, plan: Plan, txid: string, createdDirectories: ReadonlyArray<string>): TransactionSteps => {
  const records: JournalPublication[] = plan.publications.map((p) => ({
    kind: p.kind,
    dest: p.dest,
    stage: p.kind === 'remove' ? null : beside(p.dest, `stage-${txid}`),
    backup: beside(p.dest, `backup-${txid}`),
    trash: beside(p.dest, `trash-${txid}`),
    before: p.before,
    after: p.kind === 'remove' ? null : p.after,
  }));
  const journal: Journal = { version: 1, txid, plugin: pluginKey(plan.plugin), phase: 'prepared', createdDirectories: [...createdDirectories], publications: records };
  const stage: Step[] = [];
  const publish: Step[] = [];
  const cleanup: Step[] = [];
  plan.publications.forEach((p, i) => {
    const record = records[i] as JournalPublication;
    if (p.kind === 'directory') {
      stage.push({ _tag: 'StageDirectory', stage: record.stage as string, package: p.package });
      if (p.before !== null) publish.push({ _tag: 'Rename', from: p.dest, to: record.backup });
      publish.push({ _tag: 'Rename', from: record.stage as string, to: p.dest });
      if (p.before !== null) cleanup.push({ _tag: 'Remove', path: record.backup });
    } else if (p.kind === 'file') {
      stage.push({ _tag: 'StageFile', path: record.stage as string, bytes: p.bytes, mode: p.mode });
      if (p.previous !== null) {
        stage.push({ _tag: 'StageFile', path: record.backup, bytes: p.previous.bytes, mode: p.previous.mode });
        cleanup.push({ _tag: 'Remove', path: record.backup });
      }
      publish.push({ _tag: 'Rename', from: record.stage as string, to: p.dest });
    } else {
      publish.push({ _tag: 'Rename', from: p.dest, to: record.backup });
      cleanup.push({ _tag: 'Remove', path: record.backup });
    }
  });
  const stagedDirectories = records.filter((r) => r.kind === 'directory').map((r) => r.stage as string);
  const journalPath = layoutOf(homes, plan.plugin).journal;
  const steps: Step[] = [
    { _tag: 'WriteJournal', journal },
    ...createdDirectories.map((path): Step => ({ _tag: 'MakeDirectory', path })),
    ...stage,
    ...(stagedDirectories.length > 0 ? [{ _tag: 'Flush', roots: stagedDirectories } as const] : []),
    ...publish,
    { _tag: 'WriteJournal', journal: { ...journal, phase: 'committed' } },
    ...cleanup,
    { _tag: 'Remove', path: journalPath },
  ];
  return { txid, journalPath, journal, steps, commitIndex: steps.length - cleanup.length - 2 };
};
