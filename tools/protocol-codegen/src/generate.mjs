/**
 * The generation pipeline: the pinned binary's TypeScript bindings in, the files of
 * libs/codex-protocol that the generator owns out.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as config from './config.mjs';
import { runGenerateTs } from './codexBinary.mjs';
import { emitCodecModules, emitCodecsModule, emitCodecTableModule, emitTypesModule } from './emitCodecs.mjs';
import { emitDescriptorsModule } from './emitDescriptors.mjs';
import { emitTypeTests } from './emitTypeTests.mjs';
import { readTree } from './fsTree.mjs';
import { addJsExtensions } from './postprocess.mjs';
import { readProtocolModel } from './protocolModel.mjs';
import { planModules } from './modules.mjs';
import { planGeneration } from './selection.mjs';

/**
 * Builds every generated file of the library from the raw ts-rs output. Pure.
 * @param {Map<string, string>} rawTree the files written by `codex app-server generate-ts`
 * @param {string} codexVersion
 * @param {import('./selection.mjs').GeneratorConfig} [generatorConfig]
 * @returns {Map<string, string>} library-relative path → text
 */
export function buildLibraryFiles(rawTree, codexVersion, generatorConfig = config) {
  const tree = addJsExtensions(rawTree);
  const model = readProtocolModel(tree);
  const plan = planGeneration(model, generatorConfig);
  /** @type {Map<string, string>} */
  const files = new Map();
  for (const [path, text] of tree) files.set(`src/generated/${path}`, text);
  const modules = planModules(model.types, plan, generatorConfig.features ?? {}, generatorConfig.forwardCompatible ?? false);
  const input = { types: model.types, plan, modules, tree, codexVersion };
  for (const [module, text] of emitCodecModules(input)) files.set(`src/codecs/${module}.ts`, text);
  files.set('src/codecs/codecs.ts', emitCodecsModule(input));
  files.set('src/codecs/codecTable.ts', emitCodecTableModule(input));
  files.set('src/codecs/descriptors.ts', emitDescriptorsModule(input));
  files.set('src/codecs/types.ts', emitTypesModule(input));
  files.set('test/generated/codecTypes.test-d.ts', emitTypeTests(input));
  return files;
}

/**
 * Runs the pinned binary and builds the library files.
 * @returns {Promise<Map<string, string>>}
 */
export async function generateLibraryFiles() {
  const scratch = await mkdtemp(join(tmpdir(), 'protocol-codegen-'));
  try {
    const out = join(scratch, 'ts');
    const { version } = await runGenerateTs(out);
    return buildLibraryFiles(await readTree(out), version);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
