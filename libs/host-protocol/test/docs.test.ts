/**
 * `docs/host-protocol.md` and the library stay in step: every request, notification and error code of
 * the library is in the document's tables, and every one the document's tables list is in the library.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CardShow, HostErrorCode, HostNotifications, HostRequests } from '../src/index.js';

const doc = readFileSync(new URL('../../../docs/host-protocol.md', import.meta.url), 'utf8');

/** The body of the `## <title>` section, up to the next `## ` heading. */
function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/host-protocol.md has no section "${title}"`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** The first cells of a section's table rows (header and separator rows left out), backticks removed. */
function firstCells(title: string): string[] {
  return section(title)
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .map((line) => line.slice(2, line.indexOf(' |', 2)).trim())
    .filter((cell) => cell.startsWith('`') || /^-?\d+$/.test(cell))
    .map((cell) => cell.replace(/`/g, ''));
}

describe('docs/host-protocol.md', () => {
  it('documents exactly the requests from the host', () => {
    expect(firstCells('Requests from the host').sort()).toEqual(Object.keys(HostRequests).sort());
  });

  it('documents exactly the requests from the executor', () => {
    expect(firstCells('Requests from the executor')).toEqual([CardShow.method]);
  });

  it('documents exactly the notifications', () => {
    expect(firstCells('Notifications from the executor').sort()).toEqual(Object.keys(HostNotifications).sort());
  });

  it('documents exactly the error codes', () => {
    expect(firstCells('Error codes').map(Number).sort()).toEqual(Object.values(HostErrorCode).sort());
  });
});
