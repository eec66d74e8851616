/** The loader hooks of `spawnProbe.mjs`: each module's URL is appended to the loads file before it runs. */
import { appendFileSync } from 'node:fs';

let loads = '';

/** Takes the loads file from the preload. */
export function initialize(data) {
  loads = data.loads;
}

/** Records the module, then loads it as Node would. */
export async function load(url, context, nextLoad) {
  appendFileSync(loads, `${url}\n`);
  return nextLoad(url, context);
}
