/**
 * A preload module (`node --import`) that records which modules a process has loaded at the moment it
 * spawns its first child process, and again when it first writes to stdout (an executor's first answer):
 * ES modules as the module loader's `load` hook sees them (in order, each before it runs), CommonJS
 * modules from the require cache. It writes one JSON line for each to the file named by
 * `SPAWN_PROBE_FILE`: `{ "spawned": <command>, "modules": [<file URL or path>, ...] }`, then
 * `{ "answered": true, "modules": [...] }`. Nothing else of the process changes.
 */
import childProcess from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire, register, syncBuiltinESMExports } from 'node:module';

const out = process.env['SPAWN_PROBE_FILE'];
if (out !== undefined && out !== '') {
  const loads = `${out}.loads`;
  writeFileSync(loads, '');
  register('./spawnProbeHooks.mjs', import.meta.url, { data: { loads } });
  const require = createRequire(import.meta.url);
  const original = childProcess.spawn;
  const loaded = () => [...readFileSync(loads, 'utf8').split('\n').filter((line) => line !== ''), ...Object.keys(require.cache)];
  let recorded = false;
  childProcess.spawn = function spawn(command, ...rest) {
    if (!recorded) {
      recorded = true;
      appendFileSync(out, `${JSON.stringify({ spawned: String(command), modules: loaded() })}\n`);
    }
    return original.call(this, command, ...rest);
  };
  syncBuiltinESMExports();
  const write = process.stdout.write;
  let answered = false;
  process.stdout.write = function firstWrite(...args) {
    if (!answered) {
      answered = true;
      appendFileSync(out, `${JSON.stringify({ answered: true, modules: loaded() })}\n`);
    }
    return write.apply(this, args);
  };
}
