/**
 * `@wework/ports/testing`: in-memory implementations of the ports — a file system and time that moves
 * only when a test advances it — so libraries and hosts test their programs without disk or clock — and
 * a fault-injecting wrapper over any file-system port (fail the N-th mutation with `ENOSPC`, `EIO` or
 * `EDQUOT`) with a whole-tree snapshot to compare states byte for byte.
 *
 * Everything here is pure: no IO, no clock, no randomness.
 */
export { MemoryFileSystem, type MemoryEntry } from './internal/MemoryFileSystem.js';
export { manualClock, manualTimers, type ManualClock, type ManualTimers } from './internal/ManualTime.js';
export {
  DISK_FAULT_CODES,
  failingAt,
  instrumentFileSystem,
  isTemporaryName,
  snapshotTree,
  temporaryPathsIn,
  type DiskFaultCode,
  type FaultyFileSystem,
  type Mutation,
  type MutationKind,
  type MutationVerdict,
  type TreeEntry,
  type TreeSnapshot,
} from './internal/FaultInjection.js';
export { sha256Hex } from './internal/Sha256.js';
export { leftOf, rightOf } from './internal/TaskSides.js';
