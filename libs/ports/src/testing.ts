/**
 * `@wework/ports/testing`: in-memory implementations of the ports — a file system and time that moves
 * only when a test advances it — so libraries and hosts test their programs without disk or clock.
 *
 * Everything here is pure: no IO, no clock, no randomness.
 */
export { MemoryFileSystem, type MemoryEntry } from './internal/MemoryFileSystem.js';
export { manualClock, manualTimers, type ManualClock, type ManualTimers } from './internal/ManualTime.js';
export { sha256Hex } from './internal/Sha256.js';
export { leftOf, rightOf } from './internal/TaskSides.js';
