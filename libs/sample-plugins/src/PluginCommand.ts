/**
 * How to start a sample plugin from the package's built output, as the command line an MCP
 * client (Codex `[mcp_servers.<name>] command/args`, the MCP SDK's stdio transport) runs.
 */
import { fileExists } from './node/fileExists.js';
import { fileURLToPath } from 'node:url';

/** A command line: the program and its arguments. */
export interface PluginCommand {
  readonly command: string;
  readonly args: ReadonlyArray<string>;
}

/** The sample plugins this package builds. */
export type SamplePluginName = 'forms' | 'connector';

/** The built plugin executable is missing: build the package first (`tsc -p tsconfig.lib.json`). */
export interface PluginNotBuilt {
  readonly _tag: 'PluginNotBuilt';
  readonly plugin: SamplePluginName;
  readonly path: string;
}

const binFiles: Readonly<Record<SamplePluginName, string>> = { forms: 'forms-plugin.js', connector: 'connector-plugin.js' };

/**
 * Absolute path of a plugin's built executable. Both `src/` and `dist/` sit one level below the
 * package root, so the path is the same whether this module runs from source or from the build.
 */
export function pluginBinPath(plugin: SamplePluginName): string {
  return fileURLToPath(new URL(`../dist/bin/${binFiles[plugin]}`, import.meta.url));
}

/**
 * The command line that starts a sample plugin with the current Node executable.
 *
 * @example
 * ```ts
 * import { samplePluginCommand } from '@wework/sample-plugins';
 * const { command, args } = samplePluginCommand('forms');
 * // Codex config: [mcp_servers.forms] command = command, args = args
 * ```
 */
export function samplePluginCommand(plugin: SamplePluginName): PluginCommand {
  return { command: process.execPath, args: [pluginBinPath(plugin)] };
}

/** The command line that starts the forms plugin (`{ command: process.execPath, args: [<dist>/bin/forms-plugin.js] }`). */
export function formsPluginCommand(): PluginCommand {
  return samplePluginCommand('forms');
}

/** Checks that a plugin's executable has been built; the command line when it has. */
export function checkPluginBuilt(plugin: SamplePluginName): { readonly ok: true; readonly command: PluginCommand } | { readonly ok: false; readonly error: PluginNotBuilt } {
  const path = pluginBinPath(plugin);
  return fileExists(path) ? { ok: true, command: samplePluginCommand(plugin) } : { ok: false, error: { _tag: 'PluginNotBuilt', plugin, path } };
}
