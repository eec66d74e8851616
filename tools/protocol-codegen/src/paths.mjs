/**
 * Locations the generator reads and writes, computed from this file's place in the workspace.
 */
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

/** The tools/protocol-codegen directory. */
export const toolRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The workspace root. */
export const workspaceRoot = resolve(toolRoot, '..', '..');

/** The root of libs/codex-protocol, where generated files are checked in. */
export const libRoot = join(workspaceRoot, 'libs', 'codex-protocol');

/**
 * Directories (relative to the library root) that the generator owns completely: every file in
 * them is generated, and the drift check compares them file by file.
 */
export const managedDirectories = ['src/generated', 'src/codecs', 'test/generated'];
