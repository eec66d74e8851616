/**
 * `@wework/sync-transaction`: one all-or-nothing local transaction for a plugin's package, its Codex
 * and Claude runtime caches, registries and enablement, with a per-plugin journal, a cross-process
 * manifest lock and restart recovery. Pure planning; the disk and the process are reached through
 * ports (`./node` implements them).
 */
export {
  PackageEntry,
  PACKAGE_DIRECTORY_MODE,
  StagedContent,
  normalizedDirectoryMode,
  normalizedFileMode,
  validatePackage,
  type PackageRejected,
  type PackageRejectionReason,
  type ValidDirectory,
  type ValidEntry,
  type ValidFile,
  type ValidMemoryFile,
  type ValidPackage,
  type ValidStagedFile,
  type ValidSymlink,
} from './Package.js';
export {
  DEFAULT_INTAKE_LIMITS,
  admitCopiedBytes,
  admitEntry,
  emptyTally,
  entryKindOf,
  intakeLimits,
  packageRefused,
  sameIdentity,
  type EntryKind,
  type EntryStat,
  type IntakeLimits,
  type IntakeRefusalReason,
  type IntakeTally,
  type PackageRefused,
} from './Intake.js';
export type { HostPort, ProcessIdentity } from './HostPort.js';
export {
  cacheDirectoryOf,
  checkIdentifier,
  checkPluginId,
  journalKeyOf,
  layoutOf,
  manifestPath,
  packageDirectoryOf,
  runtimeHomes,
  type HomeName,
  type Homes,
  type InvalidIdentifier,
  type RuntimeTarget,
} from './Layout.js';
export { readCodexEnablement, setCodexEnablement, type ConfigParseFailed, type ConfigTomlError, type UnsupportedConfigLayout } from './ConfigToml.js';
export {
  editClaudeInstalledPlugins,
  editClaudeKnownMarketplaces,
  editClaudeSettings,
  editCodexMarketplace,
  readClaudeEnablement,
  type ClaudeInstallation,
  type RegistryParseFailed,
} from './Registries.js';
export {
  InstalledFor,
  MANIFEST_VERSION,
  Manifest,
  ManifestRecord,
  ManifestV1,
  OwnedCache,
  PackageRecord,
  RecordedEnablement,
  decodeManifest,
  decodeManifestValue,
  emptyManifest,
  encodeManifest,
  isUninstalled,
  migrateManifest,
  ownsCache,
  recordOf,
  updateRecord,
  withRecord,
  type ManifestParseFailed,
} from './Manifest.js';
export { readManifest } from './ManifestFile.js';
export { Journal, JournalPublication, PublicationKind, decodeJournal, encodeJournal } from './Journal.js';
export { fileDigest, packageDigest, treeDigest } from './TreeDigest.js';
export {
  claudeSideOf,
  directoriesToRead,
  filesToRead,
  packageStorePath,
  planChange,
  type FileSnapshot,
  type OwnershipConflict,
  type Plan,
  type PlanError,
  type PlannedChange,
  type PlannedInstall,
  type PlannedPublication,
  type PlannedRemove,
  type StateSnapshot,
} from './Plan.js';
export { stepsOf, type Step, type TransactionSteps } from './Steps.js';
export { acquireLock, sweepLockTemps, type LockError, type LockHandle, type LockOptions, type LockTimeout } from './ManifestLock.js';
export {
  finish,
  recoverAll,
  recoverPlugin,
  rollBack,
  sweepJournalTemps,
  type Conflict,
  type ConflictReason,
  type RecoveryError,
  type RecoveryOutcome,
  type RecoveryReport,
} from './Recovery.js';
export {
  commitChange,
  executeSteps,
  type BeforeCommit,
  type CommitOptions,
  type ExtractionFailed,
  type LinkInHome,
  type NotARegularFile,
  type PackageSource,
  type PendingConflict,
  type RollbackIncomplete,
  type SyncChange,
  type SyncError,
  type TransactionPorts,
  type TransactionResult,
  type TransactionAborted,
  type TransactionRolledBack,
} from './Transaction.js';
export { compareBundled, upgradeBundled, type BundledComparison, type BundledPackageSource, type BundledUpgradeResult } from './BundledUpgrade.js';
export {
  PLUGIN_MANIFEST_FILE,
  checkRecoveryPackage,
  currentCachesOf,
  decideDirectoryRecovery,
  rebuildEnablement,
  repairsOf,
  type CacheState,
  type DirectoryDecision,
  type DirectoryObservation,
  type DirectoryOutcome,
  type DirectoryRecoveryReport,
  type DirectoryRepairReason,
  type PackageOrigin,
  type ReadPackage,
  type RebuildReason,
} from './DirectoryRecovery.js';
export { recoverDirectories, type DirectoryRecoveryOptions, type DirectoryRecoveryPorts } from './RecoverDirectories.js';
