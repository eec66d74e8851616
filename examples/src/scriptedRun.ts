/**
 * Everything a host example needs to drive the real executor without an OpenAI account: throw-away
 * directories (executor home, HOME, workspace), the sample forms plugin as an MCP server whose tool calls
 * need no approval, and — unless the example starts `wework-scripted-model` itself, as host.py does — the
 * scripted model as Codex's model provider; the Codex config written to `<executor home>/codex/config.toml`
 * before the executor starts. The example then starts the executor itself from the environment
 * {@link ScriptedRun.env} names.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { stringify as stringifyToml } from 'smol-toml';
import { weworkFeatures } from '@wework/approval-policy';
import { checkPluginBuilt, type PluginCommand } from '@wework/sample-plugins';
import { callTool, respond, say, type Script } from '@wework/scripted-model';
import { formatCodexConfigError, startScriptedModel, writeScriptedModelConfig, type ScriptedModel } from '@wework/scripted-model/node';

/** The model's answers in the examples' one turn: call the forms plugin's `choose_strategy`, then say what was chosen. */
export const formsTurnScript: Script = [respond(callTool('forms', 'choose_strategy')), respond(say('Aye, the safe course it is.'))];

/**
 * The `config.toml` content before the model is written into it: Wework's `[features]` and the forms plugin
 * as `[mcp_servers.forms]` with its tools approved (so the form is the only card of the turn).
 */
export function formsPluginCodexConfig(forms: PluginCommand): Readonly<Record<string, unknown>> {
  return {
    features: { ...weworkFeatures },
    mcp_servers: { forms: { command: forms.command, args: forms.args, default_tools_approval_mode: 'approve' } },
  };
}

/** The serve entry of the installed desktop executor (`dist/serve.js`, built by `nx build desktop-executor`). */
export function serveEntryPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@wework/desktop-executor/package.json')), 'dist', 'serve.js');
}

/** A prepared run: its directories, the model (with the requests it received), the environment for a host example. */
export interface ScriptedRun {
  readonly dirs: { readonly executorHome: string; readonly userHome: string; readonly workspace: string };
  /** The in-process scripted model; null when the example starts `wework-scripted-model` itself. */
  readonly model: ScriptedModel | null;
  /**
   * What a host example reads: `WEWORK_SERVE_JS`, `WEWORK_EXECUTOR_HOME`, `WEWORK_WORKSPACE`, and `HOME` set
   * to the throw-away home (so the executor links no login of the user's).
   */
  readonly env: Readonly<Record<string, string>>;
  /** Stops the model and removes the directories. */
  readonly close: () => Promise<void>;
}

/**
 * Prepares a run of `script` (default {@link formsTurnScript}) with the scripted model in this process, or —
 * with `null` — without a model, for an example that starts `wework-scripted-model` itself; fails when the
 * sample plugins are not built.
 */
export async function prepareScriptedRun(script: Script | null = formsTurnScript): Promise<ScriptedRun> {
  const plugin = checkPluginBuilt('forms');
  if (!plugin.ok) throw new Error(`the forms sample plugin is not built (npx nx build sample-plugins): ${plugin.error.path}`);
  const root = await mkdtemp(join(tmpdir(), 'wework-example-'));
  const dirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  let model: ScriptedModel | undefined;
  const close = async (): Promise<void> => {
    await model?.close();
    await rm(root, { recursive: true, force: true });
  };
  try {
    await Promise.all([...Object.values(dirs), join(dirs.executorHome, 'codex')].map((dir) => mkdir(dir, { recursive: true })));
    const codexHome = join(dirs.executorHome, 'codex');
    await writeFile(join(codexHome, 'config.toml'), stringifyToml(formsPluginCodexConfig(plugin.command)), { mode: 0o600 });
    if (script !== null) {
      model = await startScriptedModel({ script });
      const written = await writeScriptedModelConfig(codexHome, { baseUrl: model.url });
      if (E.isLeft(written)) throw new Error(formatCodexConfigError(written.left));
    }
  } catch (error) {
    await close();
    throw error;
  }
  const env = { WEWORK_SERVE_JS: serveEntryPath(), WEWORK_EXECUTOR_HOME: dirs.executorHome, WEWORK_WORKSPACE: dirs.workspace, HOME: dirs.userHome };
  return { dirs, model: model ?? null, env, close };
}
