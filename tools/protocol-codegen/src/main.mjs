#!/usr/bin/env node
/**
 * protocol-codegen command line.
 *
 *   node src/main.mjs generate   regenerate libs/codex-protocol/src/{generated,codecs} and its type test
 *   node src/main.mjs check      regenerate into a temp dir, compare with the checked-in files, exit 1 on drift
 *   node src/main.mjs capture    re-record the golden fixtures from a live `codex app-server`
 *   node src/main.mjs measure-import   median import time of the built library barrel
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compareDirectories, formatDrift, hasDrift } from './drift.mjs';
import { writeTree } from './fsTree.mjs';
import { generateLibraryFiles } from './generate.mjs';
import { libRoot, managedDirectories } from './paths.mjs';

/**
 * Regenerates into a temporary directory and compares it with the checked-in library.
 * @returns {Promise<import('./drift.mjs').DriftReport>}
 */
export async function checkForDrift() {
  const scratch = await mkdtemp(join(tmpdir(), 'protocol-check-'));
  try {
    await writeTree(scratch, await generateLibraryFiles(), managedDirectories);
    return await compareDirectories(scratch, libRoot, managedDirectories);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** @param {string | undefined} command */
async function main(command) {
  switch (command) {
    case 'generate': {
      const files = await generateLibraryFiles();
      await writeTree(libRoot, files, managedDirectories);
      console.log(`Wrote ${files.size} files under ${managedDirectories.map((d) => `libs/codex-protocol/${d}`).join(', ')}.`);
      return 0;
    }
    case 'check': {
      const report = await checkForDrift();
      console.log(formatDrift(report));
      return hasDrift(report) ? 1 : 0;
    }
    case 'capture': {
      const { captureGoldenFixtures } = await import('./capture/captureGoldens.mjs');
      const written = await captureGoldenFixtures();
      console.log(`Recorded ${written.length} golden fixtures.`);
      return 0;
    }
    case 'measure-import': {
      const { measureImport } = await import('./measureImport.mjs');
      const m = await measureImport();
      console.log(
        `Import of libs/codex-protocol/dist/index.js, median of ${m.runs} fresh processes: ` +
          `io-ts + fp-ts ${m.dependencies.toFixed(1)} ms, library ${m.library.toFixed(1)} ms, total ${m.total.toFixed(1)} ms.`,
      );
      return 0;
    }
    default:
      console.error('usage: node src/main.mjs generate | check | capture | measure-import');
      return 2;
  }
}

const isEntryPoint = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isEntryPoint) {
  main(process.argv[2]).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
