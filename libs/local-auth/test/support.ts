/**
 * Shared helpers of the tests: the fixture plugin, temporary directories, process liveness, log capture.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as E from 'fp-ts/lib/Either.js';
import type { AuthLogRecord } from '../src/Ports.js';
import type { ConnectorLocalAuth } from '../src/LocalAuthManifest.js';
import { decodeLocalAuthConnectors } from '../src/index.js';

/** The fixture plugin: its bridges live under `bin/`. */
export const pluginRoot = fileURLToPath(new URL('./fixtures/plugin', import.meta.url));

/** A temporary directory, removed by the returned function. */
export function tempDir(prefix = 'local-auth-'): { readonly path: string; readonly remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Whether a process runs (zombies count as gone). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Pids a fixture recorded in its pids file. */
export function recordedPids(file: string): number[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Waits until `predicate` holds (polling), or fails after `ms`. */
export async function eventually(predicate: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A logger that keeps every record. */
export function captureLog(): { readonly records: AuthLogRecord[]; readonly log: (record: AuthLogRecord) => void } {
  const records: AuthLogRecord[] = [];
  return { records, log: (record) => void records.push(record) };
}

/** Decodes one connector from a `localAuth` JSON section, failing the test if it does not decode. */
export function connector(slug: string, localAuth: Record<string, unknown>): ConnectorLocalAuth {
  const decoded = decodeLocalAuthConnectors({ connectors: [{ slug, localAuth }] });
  if (E.isLeft(decoded)) throw new Error(decoded.left.message);
  const first = decoded.right[0];
  if (first === undefined) throw new Error('no connector');
  return first;
}

/** A QR connector over the fixture `qr-bridge.mjs`. */
export const qrConnector = (extra: Record<string, unknown> = {}): ConnectorLocalAuth =>
  connector('dingtalk', {
    type: 'local_qr',
    health: ['bin/qr-bridge.mjs', 'health'],
    start: ['bin/qr-bridge.mjs', 'start'],
    poll: ['bin/qr-bridge.mjs', 'poll'],
    ...extra,
  });

/** A browser OAuth connector over the fixture `oauth-bridge.mjs`. */
export const oauthConnector = (extra: Record<string, unknown> = {}): ConnectorLocalAuth =>
  connector('glab', { type: 'browser_oauth', health: 'bin/oauth-bridge.mjs health', start: 'bin/oauth-bridge.mjs start', ...extra });
