/**
 * Each wire method is declared once and served once: every request of `HostRequests` has exactly one
 * handler in the executor's area modules (`src/host/handlers/*Handlers.ts`, keyed by the wire name) and
 * exactly one row in `docs/host-protocol.md`; so do `card/show` and every notification in the doc. A method
 * added to the protocol without a handler or a row fails here (and, without a handler, fails to compile).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ExecutorRequests, HostNotifications, HostRequests } from '@wework/host-protocol';
import { executorHandlers, type ExecutorServices } from '../src/host/handlers/ExecutorHandlers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const areasDir = join(root, 'src', 'host', 'handlers');
const areaFiles = readdirSync(areasDir).filter((name) => name.endsWith('Handlers.ts') && name !== 'ExecutorHandlers.ts');
const doc = readFileSync(join(root, '..', '..', 'docs', 'host-protocol.md'), 'utf8');
const requests = Object.keys(HostRequests);

/** The wire methods an area module serves: the keys `'<method>':` of its handler table. */
const servedIn = (file: string): ReadonlyArray<string> =>
  [...readFileSync(join(areasDir, file), 'utf8').matchAll(/^\s*'([a-z][A-Za-z]*(?:\/[A-Za-z]+)+)':\s/gm)].map((match) => match[1] ?? '');

/** How many table rows of the doc start with the method. */
const rowsOf = (method: string): number => doc.split('\n').filter((line) => line.startsWith(`| \`${method}\` |`)).length;

describe('one declaration, one handler, one row per wire method', () => {
  it('the areas are the ten of the host protocol', () => {
    expect(areaFiles.sort()).toEqual(
      ['Account', 'Event', 'Marketplace', 'Message', 'Plugin', 'Runtime', 'Settings', 'Skill', 'Supervision', 'Task'].map((area) => `${area}Handlers.ts`),
    );
  });

  it('every request has exactly one handler in the area modules, and nothing else is served', () => {
    const served = areaFiles.flatMap((file) => servedIn(file).map((method) => ({ method, file })));
    for (const method of requests) expect(served.filter((entry) => entry.method === method).map((entry) => entry.file), method).toHaveLength(1);
    expect(served.map((entry) => entry.method).filter((method) => !requests.includes(method))).toEqual([]);
  });

  it('the executor serves exactly the protocol\'s requests', () => {
    const handlers = executorHandlers({ log: () => undefined } as unknown as ExecutorServices);
    expect(Object.keys(handlers).sort()).toEqual([...requests].sort());
  });

  it('every request, card/show and every notification has exactly one row in docs/host-protocol.md', () => {
    for (const method of [...requests, ...Object.keys(ExecutorRequests), ...Object.keys(HostNotifications)]) expect(rowsOf(method), method).toBe(1);
  });
});
