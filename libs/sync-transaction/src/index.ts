/**
 * `@wework/sync-transaction`: one all-or-nothing local transaction for a plugin's package, its Codex
 * and Claude runtime caches, registries and enablement, with a per-plugin journal, a cross-process
 * manifest lock and restart recovery. Pure planning; the disk and the process are reached through
 * ports (`./node` implements them).
 */
export { PackageEntry, validatePackage } from './Package.js';
export { DEFAULT_INTAKE_LIMITS, intakeLimits, type IntakeLimits } from './Intake.js';
export { cacheDirectoryOf, checkIdentifier, checkPluginId, type Homes, type RuntimeTarget } from './Layout.js';
export { Manifest, ManifestRecord, emptyManifest, recordOf, withRecord, type ManifestParseFailed } from './Manifest.js';
export { readManifest } from './ManifestFile.js';
export { claudeSideOf } from './Plan.js';
export { recoverAll } from './Recovery.js';
export {
  commitChange,
  type BeforeCommit,
  type PackageSource,
  type SyncError,
  type TransactionPorts,
  type TransactionResult,
} from './Transaction.js';
export { compareBundled, upgradeBundled, type BundledUpgradeResult } from './BundledUpgrade.js';
export { repairsOf, type DirectoryRecoveryReport, type DirectoryRepairReason } from './DirectoryRecovery.js';
export { recoverDirectories } from './RecoverDirectories.js';
