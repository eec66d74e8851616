/**
 * Temporary homes for an end-to-end test against the real desktop executor: an executor home whose
 * Codex home points at the scripted model (and, when asked, the sample forms plugin), a user home and a
 * workspace — each test its own, removed afterwards.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { weworkFeatures } from '@wework/approval-policy';
import { checkPluginBuilt } from '@wework/sample-plugins';
import type { Script } from '@wework/scripted-model';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';

/** The homes of one test and its scripted model. */
export interface ExecutorHomes {
  readonly executorHome: string;
  readonly userHome: string;
  readonly workspace: string;
  readonly model: ScriptedModel;
  /** Stops the model and removes the homes. */
  readonly remove: () => Promise<void>;
}

/** Makes the homes; `forms` adds the sample forms plugin (its tools approved, so only its form asks). */
export async function executorHomes(script: Script, options: { readonly forms?: boolean } = {}): Promise<ExecutorHomes> {
  const root = await mkdtemp(join(tmpdir(), 'host-client-e2e-'));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
  const model = await startScriptedModel({ script });
  const servers: Record<string, unknown> = {};
  if (options.forms === true) {
    const plugin = checkPluginBuilt('forms');
    if (!plugin.ok) throw new Error(`build the sample plugins first: ${plugin.error.path}`);
    servers['forms'] = { ...plugin.command, default_tools_approval_mode: 'approve' };
  }
  await writeFile(join(dirs.executorHome, 'codex', 'config.toml'), stringifyToml({ features: { ...weworkFeatures }, mcp_servers: servers }), { mode: 0o600 });
  const written = await writeScriptedModelConfig(join(dirs.executorHome, 'codex'), { baseUrl: model.url });
  if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
  return {
    ...dirs,
    model,
    remove: async () => {
      await model.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Whether a process is still alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
