/**
 * `npm run bench`: every benchmark, each printed as ratios against a baseline measured in the same
 * run, as the median of interleaved pairs with its spread (see `stats.ts`), with its goal and
 * whether it is met. `BENCH_ONLY=turn,cpu,peer,cold,...` runs a subset.
 */
import { benchElicitationMapping } from './elicitationMapping.js';
import { benchExecutorColdStart } from './executorColdStart.js';
import { benchExecutorTurn } from './executorTurn.js';
import { benchImagePreprocess } from './imagePreprocess.js';
import { benchMentionParsing } from './mentionParsing.js';
import { benchPeerCodexAcp } from './peerCodexAcp.js';
import { benchProtocolImport } from './protocolImport.js';
import { benchSyncCommit } from './syncCommit.js';
import { benchTurnCpu } from './turnCpu.js';
import { benchWebHost } from './webHostPaint.js';

const benchmarks: ReadonlyArray<readonly [string, () => Promise<string[]>]> = [
  ['turn', benchExecutorTurn],
  ['cpu', benchTurnCpu],
  ['peer', benchPeerCodexAcp],
  ['cold', benchExecutorColdStart],
  ['mention', benchMentionParsing],
  ['image', benchImagePreprocess],
  ['elicitation', benchElicitationMapping],
  ['sync', benchSyncCommit],
  ['import', benchProtocolImport],
  ['web', benchWebHost],
];

const only = (process.env['BENCH_ONLY'] ?? '').split(',').filter((name) => name !== '');
for (const [name, run] of benchmarks) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log((await run()).join('\n'));
  console.log('');
}
