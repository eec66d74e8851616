#!/usr/bin/env node
/**
 * The export budgets of the libraries' main entries: counts the names each built library's `.` entry
 * exports (`exportCount.mjs`), prints each against its budget in `exportBudgets.json` and the sum
 * against the total, and fails on any problem of `exportBudgetProblems` (`rules.mjs`).
 * Usage: node tools/package-check/budgets.mjs   (the libraries built: `npx nx run-many -t build`)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mainEntryExports, mainEntryTypes } from './exportCount.mjs';
import { exportBudgetProblems, exportBudgetReport } from './rules.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const workspaceRoot = resolve(here, '../..');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

const libraries = readdirSync(join(workspaceRoot, 'libs'))
  .map((dir) => join(workspaceRoot, 'libs', dir))
  .filter((pkgDir) => existsSync(join(pkgDir, 'package.json')))
  .map((pkgDir) => ({ pkgDir, pkg: readJson(join(pkgDir, 'package.json')) }))
  .filter(({ pkg }) => pkg.private !== true && mainEntryTypes(pkg) !== undefined)
  .map(({ pkgDir, pkg }) => ({ name: pkg.name, pkgDir, pkg }));
const budgets = readJson(join(here, 'exportBudgets.json'));
const counts = new Map([...mainEntryExports(libraries)].map(([name, names]) => [name, names.length]));

console.log(`export budgets of the main entries:\n${exportBudgetReport(budgets, counts).join('\n')}`);
const problems = exportBudgetProblems(budgets, counts);
if (problems.length > 0) {
  console.error(`export budgets exceeded:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('export budgets: every main entry is within its budget, and all together within the total');
