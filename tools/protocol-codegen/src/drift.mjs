/**
 * The drift check: compares the generator's output with the files checked in, byte for byte.
 */
import { join } from 'node:path';
import { readTree } from './fsTree.mjs';

/**
 * @typedef {{ changed: string[], missing: string[], unexpected: string[] }} DriftReport
 * `changed`: in both, different bytes; `missing`: generated but not checked in;
 * `unexpected`: checked in but no longer generated. Paths are relative to the library root.
 */

/**
 * Compares two trees. Pure.
 * @param {Map<string, string>} expected what the generator produces
 * @param {Map<string, string>} actual what is checked in
 * @returns {DriftReport}
 */
export function compareTrees(expected, actual) {
  const changed = [];
  const missing = [];
  for (const [path, text] of expected) {
    const current = actual.get(path);
    if (current === undefined) missing.push(path);
    else if (current !== text) changed.push(path);
  }
  const unexpected = [...actual.keys()].filter((path) => !expected.has(path));
  return { changed: changed.sort(), missing: missing.sort(), unexpected: unexpected.sort() };
}

/** Whether a report shows any difference. @param {DriftReport} report */
export function hasDrift(report) {
  return report.changed.length + report.missing.length + report.unexpected.length > 0;
}

/**
 * Reads the managed directories of two library roots and compares them.
 * @param {string} expectedRoot a freshly generated library tree
 * @param {string} actualRoot the checked-in library
 * @param {readonly string[]} directories managed directories, relative to the roots
 * @returns {Promise<DriftReport>}
 */
export async function compareDirectories(expectedRoot, actualRoot, directories) {
  return compareTrees(await readManaged(expectedRoot, directories), await readManaged(actualRoot, directories));
}

/**
 * @param {string} root
 * @param {readonly string[]} directories
 */
async function readManaged(root, directories) {
  /** @type {Map<string, string>} */
  const tree = new Map();
  for (const dir of directories) {
    for (const [path, text] of await readTree(join(root, dir))) tree.set(`${dir}/${path}`, text);
  }
  return tree;
}

/**
 * A human-readable report.
 * @param {DriftReport} report
 */
export function formatDrift(report) {
  if (!hasDrift(report)) return 'Generated protocol files are up to date.';
  return [
    'Generated protocol files differ from the pinned codex binary:',
    ...report.changed.map((p) => `  changed:    ${p}`),
    ...report.missing.map((p) => `  missing:    ${p}`),
    ...report.unexpected.map((p) => `  unexpected: ${p}`),
    'Run `npm run protocol:generate` at the workspace root and commit the result.',
  ].join('\n');
}
