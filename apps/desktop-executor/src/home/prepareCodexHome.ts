/**
 * Before the app-server starts: resolve the Wework Codex home (`WEGENT_CODEX_HOME`, else the `codex`
 * child of the executor home), create it, ask the first-start question when a native `~/.codex` exists,
 * link the native auth.json, and create or normalize config.toml. A malformed config.toml stops the
 * start with a message naming line and column; the file is left as it is.
 */
import * as E from 'fp-ts/lib/Either.js';
import type * as T from 'fp-ts/lib/Task.js';
import type { CodexHome, FirstStart, HomePreparationError, HomePrepared, MigrationChoice } from '@wework/codex-home';
import type { Log } from '@wework/ports';

/** The first-start question, asked of the host. */
export type AskMigration = (question: Extract<FirstStart, { _tag: 'AskMigration' }>) => T.Task<MigrationChoice>;

/** A sentence a person can act on (paths of the Wework home only; never file contents). */
export function describeHomePreparationError(error: HomePreparationError): string {
  switch (error._tag) {
    case 'MalformedConfig':
      return `config.toml is not valid TOML (line ${error.line}, column ${error.column}): ${error.message}. It was left unchanged; fix it and start again.`;
    case 'FileSystemError':
      return `the Codex home could not be prepared (${error.operation} ${error.path}: ${error.code})`;
    default:
      return `the Codex home could not be prepared (${error._tag}${'path' in error ? ` ${String(error.path)}` : ''})`;
  }
}

/** Prepares the home and logs what changed (never the config's content). */
export async function prepareCodexHome(home: CodexHome, ask: AskMigration, log: Log): Promise<E.Either<HomePreparationError, HomePrepared>> {
  const prepared = await home.prepareForStart(ask)();
  if (E.isLeft(prepared)) {
    log({ event: 'codex home not prepared', fields: { error: prepared.left._tag } });
    return prepared;
  }
  const { firstStart, migration, authLink, config, interruptedShellSnapshots } = prepared.right;
  log({
    event: 'codex home prepared',
    fields: {
      firstStart: firstStart._tag,
      migratedConfig: migration === null ? null : migration.state.configSource,
      authLink: authLink._tag,
      config: config._tag,
      configChanges: 'changes' in config ? config.changes.map((change) => change._tag) : [],
      interruptedShellSnapshotsRemoved: E.isRight(interruptedShellSnapshots) ? interruptedShellSnapshots.right : `failed (${interruptedShellSnapshots.left.code})`,
    },
  });
  return prepared;
}
