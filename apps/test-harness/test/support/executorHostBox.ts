/**
 * The desktop executor started as a process the way the end-to-end tests host it: a temporary root holding
 * its executor home, HOME and workspace, a scripted model, a `config.toml` naming that model and the test's
 * MCP servers, and the serve entry connected as a host, checked to answer `executor/info`. Each test file
 * says only what its scenario adds: the script, the plugins, the environment, the card policy, and the files
 * it writes before the executor starts.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyToml } from 'smol-toml';
import type { Script } from '@wework/scripted-model';
import { startScriptedModel, type ScriptedModel } from '@wework/scripted-model/node';
import { harnessCodexConfig, type HarnessConfigOptions } from '../../src/CodexConfig.js';
import { startExecutorHost, type CardPolicy, type ExecutorHostClient, type ExecutorHostOptions } from '../../src/host/ExecutorHostClient.js';

/** The executor's directories under the box's root. */
export interface HostDirs {
  readonly executorHome: string;
  readonly userHome: string;
  readonly workspace: string;
}

/** Where the executor runs: the root and the executor's directories, made before it starts. */
export interface HostPlace {
  readonly root: string;
  readonly dirs: HostDirs;
  /** `<executorHome>/codex`, holding `config.toml`. */
  readonly codexHome: string;
}

type McpServers = HarnessConfigOptions['mcpServers'];

/** Options of {@link startHostBox}. */
export interface HostBoxOptions {
  /** The prefix of the temporary root's name, e.g. `harness-host-crash-loop-`. */
  readonly prefix: string;
  /** What the scripted model answers, request by request; default none. */
  readonly script?: Script;
  /** The MCP servers of `config.toml`; a function when they live under the root. */
  readonly mcpServers?: McpServers | ((place: HostPlace) => McpServers);
  /** Merged over the harness's `config.toml` (e.g. `{ features: { plugins: true } }`). */
  readonly configOverrides?: HarnessConfigOptions['overrides'];
  readonly transport?: ExecutorHostOptions['transport'];
  /** Added to `process.env` for the executor. */
  readonly env?: Readonly<Record<string, string>>;
  readonly waitForPlugins?: ReadonlyArray<string>;
  /** The desktop app's bundled plugin package directories, written by `prepare`. */
  readonly bundledPlugins?: (place: HostPlace) => ReadonlyArray<string>;
  readonly cards: CardPolicy;
  /**
   * Writes what the scenario needs before the executor starts (a native login, a wrapper script, a
   * plugin); runs once `config.toml` is written. What it returns is added to the executor's environment.
   */
  readonly prepare?: (place: HostPlace) => Promise<Readonly<Record<string, string>> | void>;
}

/** A started executor, its model and its files; `close` ends both processes and removes the root. */
export interface HostBox extends HostPlace {
  readonly workspace: string;
  readonly model: ScriptedModel;
  readonly host: ExecutorHostClient;
  readonly close: () => Promise<void>;
}

/** Starts the executor as {@link HostBoxOptions} say; fails with the executor's log when it does not answer `executor/info`. */
export async function startHostBox(options: HostBoxOptions): Promise<HostBox> {
  const root = await mkdtemp(join(tmpdir(), options.prefix));
  const dirs: HostDirs = { executorHome: join(root, 'executor'), userHome: join(root, 'home'), workspace: join(root, 'workspace') };
  const codexHome = join(dirs.executorHome, 'codex');
  let model: ScriptedModel | undefined;
  let host: ExecutorHostClient | undefined;
  const close = async (): Promise<void> => {
    await host?.close();
    await model?.close();
    await rm(root, { recursive: true, force: true });
  };
  try {
    await Promise.all([dirs.workspace, dirs.userHome, codexHome].map((dir) => mkdir(dir, { recursive: true })));
    model = await startScriptedModel({ script: options.script ?? [] });
    const place: HostPlace = { root, dirs, codexHome };
    const mcpServers = typeof options.mcpServers === 'function' ? options.mcpServers(place) : (options.mcpServers ?? {});
    const config = harnessCodexConfig({ modelUrl: model.url, mcpServers, ...(options.configOverrides === undefined ? {} : { overrides: options.configOverrides }) });
    await writeFile(join(codexHome, 'config.toml'), stringifyToml(config), { mode: 0o600 });
    const extraEnv = (await options.prepare?.(place)) ?? {};
    host = await startExecutorHost({
      transport: options.transport ?? 'stdio',
      ...dirs,
      env: { ...process.env, ...options.env, ...extraEnv },
      cards: options.cards,
      ...(options.waitForPlugins === undefined ? {} : { waitForPlugins: options.waitForPlugins }),
      ...(options.bundledPlugins === undefined ? {} : { bundledPlugins: options.bundledPlugins(place) }),
    });
    const info = await host.request('executor/info', {});
    if (info._tag === 'Left') throw new Error(`the executor did not start: ${info.left.message}\n${host.stderr()}`);
    return { root, dirs, codexHome, workspace: dirs.workspace, model, host, close };
  } catch (error) {
    await close();
    throw error;
  }
}
