/**
 * Runs `transactionChild.mjs` as a real process and drives it: acknowledges each announced step,
 * or SIGKILLs it at one of them.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { Homes } from '../../src/Layout.js';
import type { PackageEntry } from '../../src/Package.js';

const script = fileURLToPath(new URL('./transactionChild.mjs', import.meta.url));

/** A change as the child takes it (package bytes in base64). */
export type ChildChange =
  | { readonly _tag: 'Install'; readonly plugin: { name: string; marketplace: string }; readonly version: string; readonly at: string; readonly entries: ReadonlyArray<unknown> }
  | { readonly _tag: 'Remove'; readonly plugin: { name: string; marketplace: string }; readonly at: string };

/** Serializes package entries for the child. */
export const childEntries = (entries: ReadonlyArray<PackageEntry>): ReadonlyArray<unknown> =>
  entries.map((e) => (e.kind === 'file' && 'bytes' in e ? { ...e, bytes: Buffer.from(e.bytes).toString('base64') } : e));

/** One announced step. */
export interface ChildStep {
  readonly index: number;
  readonly operation: string;
  readonly path: string;
}

/** What a child run did. */
export interface ChildRun {
  readonly steps: ReadonlyArray<ChildStep>;
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  readonly result: unknown;
  readonly stderr: string;
}

/** Options of {@link runChild}. */
export interface ChildOptions {
  /** SIGKILL the child when it announces this step (before performing it). */
  readonly killAt?: number;
  /** Announce and wait at every step (implied by `killAt` and `hold`). */
  readonly announce?: boolean;
  /** Called when the child holds the lock; the child is paused at its next step until the promise resolves. */
  readonly whileLocked?: () => Promise<void>;
  /** Called as soon as the process is spawned. */
  readonly spawned?: (pid: number) => void;
  /** Called at every attempt of the child to take the manifest lock. */
  readonly lockTried?: () => void;
}

/** Spawns the child on `job` and drives it to its end (or its kill). */
export function runChild(homes: Homes, change: ChildChange, options: ChildOptions = {}): Promise<ChildRun> {
  const announce = options.announce === true || options.killAt !== undefined || options.whileLocked !== undefined;
  const child = spawn(process.execPath, [script, JSON.stringify({ homes, change, announce })], { stdio: ['pipe', 'pipe', 'pipe'] });
  options.spawned?.(child.pid as number);
  const steps: ChildStep[] = [];
  let result: unknown;
  let stderr = '';
  let lockedSeen = false;
  let pendingLocked: Promise<void> | null = null;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    if (line === 'LOCK-TRY') {
      options.lockTried?.();
      return;
    }
    if (line === 'LOCKED') {
      lockedSeen = true;
      pendingLocked = options.whileLocked?.() ?? null;
      return;
    }
    if (line.startsWith('RESULT ')) {
      result = JSON.parse(line.slice('RESULT '.length));
      return;
    }
    const match = /^STEP (\d+) (\S+) (.*)$/.exec(line);
    if (match === null) return;
    const step = { index: Number(match[1]), operation: match[2] as string, path: match[3] as string };
    steps.push(step);
    if (options.killAt === step.index) {
      child.kill('SIGKILL');
      return;
    }
    const go = (): void => void child.stdin.write('go\n');
    if (lockedSeen && pendingLocked !== null) {
      const wait = pendingLocked;
      pendingLocked = null;
      void wait.then(go);
    } else go();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ steps, signal, code, result, stderr }));
  });
}
