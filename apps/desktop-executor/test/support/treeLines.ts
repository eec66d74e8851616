/**
 * A byte-for-byte description of an executor home for "nothing changed" assertions: the tree listing
 * of `@wework/test-support` without the app-server's own runtime files (logs, databases, sessions,
 * scratch space), which change while it runs whatever the executor does.
 */
import { listTree } from '@wework/test-support';

/** Codex's own runtime files, by path relative to the executor home. */
const codexRuntimeFile = /^codex\/(log|logs|sessions|shell_snapshots|tmp|\.tmp|cache)(\/|$)|\.sqlite(-wal|-shm|-journal)?$|^codex\/models_cache\.json$/;

/** Every path, kind, mode and content digest below `root` (the app-server's own logs and databases aside). */
export const treeLines = (root: string): string[] => listTree(root, { skip: (relative) => codexRuntimeFile.test(relative) });
