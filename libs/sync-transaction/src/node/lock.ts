/**
 * `@wework/sync-transaction/node/lock`: only the lock held by this process for its whole life (one
 * executor per home), without the rest of the Node entry (the ports' transactions, package intake,
 * inspections), so a process can take its lock first and load the transaction machinery later.
 */
export { acquireProcessLock, type ProcessLock, type ProcessLockHeld } from './ProcessLock.js';
