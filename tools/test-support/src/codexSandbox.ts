/**
 * A Codex sandbox for end-to-end tests: a temporary root with an isolated Codex home, HOME and
 * workspace (and any other directories a test needs), the scripted model started on a script, and a
 * config.toml selecting it (plus what the test adds). `dispose()` runs the test's own clean-ups last
 * registered first, closes the model and removes the root, so no process or directory is left.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyToml } from 'smol-toml';
import { scriptedModelCodexConfig, type Script, type ScriptedModelConfigOptions } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';

/** Where the sandbox's directories are, relative to its root. */
export interface SandboxLayout {
  /** `codex-home` when absent. */
  readonly codexHome?: string;
  /** `home` when absent. */
  readonly home?: string;
  /** `workspace` when absent. */
  readonly workspace?: string;
}

export interface CodexSandboxOptions {
  /** What the scripted model answers, one response per request. */
  readonly script: Script;
  /** The start of the temporary root's name. */
  readonly prefix?: string;
  readonly layout?: SandboxLayout;
  /** More directories to create, relative to the root. */
  readonly directories?: ReadonlyArray<string>;
  /** The scripted model's provider settings besides its URL (provider id, name, model slug). */
  readonly model?: Omit<ScriptedModelConfigOptions, 'baseUrl'>;
  /**
   * More config.toml content, given the model's URL: merged over the scripted model's settings
   * (`features` merged key by key, so a test may turn Codex's plugins back on).
   */
  readonly config?: (modelUrl: string) => Readonly<Record<string, unknown>>;
}

export interface CodexSandbox {
  readonly root: string;
  readonly codexHome: string;
  readonly home: string;
  readonly workspace: string;
  readonly model: ScriptedModel;
  /** A path below the root. */
  path(relative: string): string;
  /** Registers a clean-up, run by {@link CodexSandbox.dispose} before the ones registered earlier. */
  onDispose(cleanup: () => Promise<void> | void): void;
  /** Runs every clean-up (each one even when another fails), closes the model and removes the root. */
  dispose(): Promise<void>;
}

const isTable = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What {@link writeCodexConfig} writes besides the scripted model's URL. */
export interface CodexConfigOptions {
  /** The scripted model's provider settings besides its URL (provider id, name, model slug). */
  readonly model?: Omit<ScriptedModelConfigOptions, 'baseUrl'>;
  /** More config.toml content, merged over the scripted model's settings (`features` key by key). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/**
 * Writes `<codexHome>/config.toml` (mode 0600) selecting the scripted model at `modelUrl` — the settings
 * of `scriptedModelCodexConfig`, fail-fast — with `options.config` merged over them, so a test may turn
 * Codex's plugins back on (`{ features: { plugins: true } }`) or add its own keys. Returns the file's path.
 */
export async function writeCodexConfig(codexHome: string, modelUrl: string, options: CodexConfigOptions = {}): Promise<string> {
  const provider = scriptedModelCodexConfig({ ...options.model, baseUrl: modelUrl });
  const extra = options.config ?? {};
  const features = { ...provider.features, ...(isTable(extra['features']) ? extra['features'] : {}) };
  const path = join(codexHome, 'config.toml');
  await writeFile(path, stringifyToml({ ...provider, ...extra, features }), { mode: 0o600 });
  return path;
}

/** Creates the directories, starts the scripted model and writes config.toml; on failure leaves nothing behind. */
export async function startCodexSandbox(options: CodexSandboxOptions): Promise<CodexSandbox> {
  const root = await mkdtemp(join(tmpdir(), options.prefix ?? 'codex-sandbox-'));
  const cleanups: Array<() => Promise<void> | void> = [() => rm(root, { recursive: true, force: true })];
  const dispose = async (): Promise<void> => {
    const failures: unknown[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, 'the sandbox was not cleaned up completely');
  };
  try {
    const path = (relative: string): string => join(root, relative);
    const codexHome = path(options.layout?.codexHome ?? 'codex-home');
    const home = path(options.layout?.home ?? 'home');
    const workspace = path(options.layout?.workspace ?? 'workspace');
    for (const dir of [codexHome, home, workspace, ...(options.directories ?? []).map(path)]) await mkdir(dir, { recursive: true });
    const model = await startScriptedModel({ script: options.script });
    cleanups.push(() => model.close());
    await writeCodexConfig(codexHome, model.url, { ...(options.model === undefined ? {} : { model: options.model }), config: options.config?.(model.url) ?? {} });
    return { root, codexHome, home, workspace, model, path, onDispose: (cleanup) => void cleanups.push(cleanup), dispose };
  } catch (error) {
    await dispose().catch(() => undefined);
    throw error;
  }
}
