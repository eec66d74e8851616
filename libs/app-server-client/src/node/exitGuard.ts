/**
 * Last-resort cleanup: while app-server process groups are alive, an `exit` handler (and handlers for
 * SIGINT, SIGTERM and SIGHUP) SIGKILLs them and their descendants, so a host that ends abruptly leaves
 * no child behind. A signal handler re-raises the signal when it is the only listener, so the host
 * still terminates as it would have without us.
 */
import { currentProcessPlatform } from './ProcessPlatform.js';
import { treeOf } from './ProcessTree.js';

const live = new Set<number>();
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let installed = false;

/** SIGKILLs every guarded group and the descendants of its leader, synchronously. */
export function killGuardedNow(): void {
  if (live.size === 0) return;
  const platform = currentProcessPlatform();
  const processes = platform.table?.listSync() ?? [];
  for (const pgid of live) {
    platform.killTreeSync?.(pgid);
    if (platform.groups) platform.signal(-pgid, 'SIGKILL');
    for (const process of treeOf(pgid, platform.groups ? pgid : -1, processes)) platform.signal(process.pid, 'SIGKILL');
  }
}

const onExit = (): void => killGuardedNow();

const onSignal = (name: NodeJS.Signals): void => {
  killGuardedNow();
  live.clear();
  uninstall();
  // Without other listeners Node would have terminated: keep that behaviour.
  if (process.listenerCount(name) === 0) process.kill(process.pid, name);
};

const signalHandlers = new Map<NodeJS.Signals, () => void>(SIGNALS.map((name) => [name, () => onSignal(name)]));

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', onExit);
  for (const [name, handler] of signalHandlers) process.on(name, handler);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', onExit);
  for (const [name, handler] of signalHandlers) process.off(name, handler);
}

/** Guards a process group (by its leader's pid) until {@link release}. */
export function guard(pgid: number): void {
  live.add(pgid);
  install();
}

/** Stops guarding a process group once it is known to be gone. */
export function release(pgid: number): void {
  live.delete(pgid);
  if (live.size === 0) uninstall();
}

/** How many groups are guarded (for tests and diagnostics). */
export function guardedCount(): number {
  return live.size;
}
