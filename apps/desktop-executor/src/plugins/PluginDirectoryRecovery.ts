/**
 * The executor's plugin homes and its one start-up recovery of them: interrupted plugin transactions
 * are finished or undone (`recoverAll`), then the managed plugin directories are checked against the
 * current homes and rebuilt from their verified packages where the executor home was moved, a
 * version 1 manifest was found, or a cache is incomplete (`recoverDirectories`). It runs once per
 * start, after the Codex home is prepared and before Codex or any backend connection starts; never
 * per message. A plugin that cannot be recovered is reported (and shown `repairRequired`); the
 * others go on.
 *
 * `WEWORK_TEST_RECOVERY_PAUSE_AT=<n>` (tests only) holds the recovery forever before its n-th file
 * mutation and says so on the log, so a crash test can kill the process at that point.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type { DirectoryRecoveryReport, DirectoryRepairReason, Homes } from '@wework/sync-transaction';
import type { Log } from '@wework/ports';

/** The plugin homes of an executor: its Codex home, its Claude home, the sync state and the package store. */
export const pluginHomesOf = (executorHome: string, codexHome: string): Homes => ({
  codexHome,
  claudeHome: join(executorHome, 'claude'),
  stateDirectory: join(executorHome, 'plugin-state'),
  packageStore: join(executorHome, 'plugin-state', 'packages'),
});

/** What start-up recovery left to repair: plugin key → reason. */
export type PluginRepairs = ReadonlyMap<string, DirectoryRepairReason>;

const pauseAtOf = (env: Readonly<Record<string, string | undefined>>): number | null => {
  const value = env['WEWORK_TEST_RECOVERY_PAUSE_AT'];
  return value !== undefined && /^\d{1,6}$/.test(value) ? Number(value) : null;
};

/**
 * Runs the start-up recovery of `homes`; failures are logged (by tag) and leave the homes as they
 * were. Returns the plugins that need repair.
 */
export async function recoverPluginHomes(homes: Homes, env: Readonly<Record<string, string | undefined>>, log: Log): Promise<PluginRepairs> {
  // No state directory: no journal, lock or manifest, so both steps would find nothing (`recoverAll`
  // answers an empty report without locking, `readManifest` an empty manifest) and change no file.
  // The transaction library and its codecs are then not loaded before Codex starts.
  if (await isMissing(homes.stateDirectory)) return new Map();
  const [{ recoverAll, recoverDirectories, repairsOf }, { createNodePorts, directoryPackageSource }] = await Promise.all([
    import('@wework/sync-transaction'),
    import('@wework/sync-transaction/node'),
  ]);
  const base = createNodePorts();
  const pauseAt = pauseAtOf(env);
  let fs = base.fs;
  if (pauseAt !== null) {
    const { instrumentFileSystem } = await import('@wework/ports/testing');
    fs = instrumentFileSystem(base.fs, (mutation) => {
      if (mutation.index < pauseAt) return Promise.resolve(true);
      log({ event: 'plugin recovery paused', fields: { mutation: mutation.index, operation: mutation.operation } });
      return new Promise<boolean>(() => undefined);
    });
  }
  const journals = await recoverAll(fs, base.host, homes)();
  if (E.isLeft(journals)) {
    log({ event: 'plugin recovery failed', fields: { error: journals.left._tag } });
    return new Map();
  }
  const directories = await recoverDirectories({ fs, host: base.host, openPackage: (path) => directoryPackageSource(path) }, homes, { at: new Date().toISOString() })();
  if (E.isLeft(directories)) {
    log({ event: 'plugin directory recovery failed', fields: { error: directories.left._tag } });
    return new Map();
  }
  const report: DirectoryRecoveryReport = directories.right;
  for (const { plugin, outcome } of report.plugins)
    if (outcome._tag !== 'Unchanged') log({ event: 'plugin directory recovery', fields: { plugin, outcome: outcome._tag, reason: 'reason' in outcome ? outcome.reason : null } });
  return new Map(repairsOf(report).map(({ plugin, reason }) => [plugin, reason]));
}

/** Whether nothing is at `path` (any other answer, an error included, lets the recovery itself look). */
async function isMissing(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
