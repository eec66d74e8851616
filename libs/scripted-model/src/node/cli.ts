/**
 * The `wework-scripted-model` command's entry (`bin/wework-scripted-model.js` runs it): see
 * `ScriptedModelCommand.ts` for the options and exit codes.
 */
import { main } from './ScriptedModelCommand.js';

await main(process.argv.slice(2));
