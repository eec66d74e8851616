/**
 * A real process that runs one transaction of @wework/sync-transaction (from its build), for the
 * crash-safety and concurrency tests. Argument: a JSON job { homes, change, announce, durability }.
 *
 * With `announce`, the process prints `STEP <index> <operation> <path>` before every mutation of the
 * file system and waits for a line on stdin before doing it, so the parent can SIGKILL it exactly
 * there. It prints `LOCK-TRY` at every attempt to take the manifest lock, `LOCKED` once it holds it and
 * `RESULT <json>` at the end.
 */
import { Buffer } from 'node:buffer';
import { createInterface } from 'node:readline';
import * as TE from 'fp-ts/lib/TaskEither.js';
import { commitChange } from '../../dist/index.js';
import { createNodeFileSystem, createNodeHost } from '../../dist/node/index.js';
import { instrumentFileSystem } from '@wework/ports/testing';

const job = JSON.parse(process.argv[2]);
const lines = createInterface({ input: process.stdin });
const waiting = [];
lines.on('line', () => waiting.shift()?.());
const nextLine = () => new Promise((resolve) => waiting.push(resolve));

const inner = createNodeFileSystem({ durability: job.durability ?? 'full' });
let locked = false;
const fs = instrumentFileSystem(inner, async ({ index, operation, path }) => {
  if (operation === 'publishExclusive' && path.endsWith('/manifest.lock')) process.stdout.write('LOCK-TRY\n');
  if (!locked && operation === 'writeFileDurable' && path.includes('/.journal.')) {
    // Journals are written only while holding the manifest lock.
    locked = true;
    process.stdout.write('LOCKED\n');
  }
  if (!job.announce) return true;
  process.stdout.write(`STEP ${index} ${operation} ${path}\n`);
  await nextLine();
  return true;
});

const decode = (entry) => (entry.bytes === undefined ? entry : { ...entry, bytes: new Uint8Array(Buffer.from(entry.bytes, 'base64')) });
const change =
  job.change._tag === 'Install'
    ? { ...job.change, source: { extract: () => TE.right(job.change.entries.map(decode)) } }
    : job.change;
const result = await commitChange({ fs, host: createNodeHost() }, job.homes, change)();
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
lines.close();
