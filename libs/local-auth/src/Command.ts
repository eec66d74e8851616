/**
 * Bridge commands of a `localAuth` connector: argv arrays run without a shell, relative to the plugin
 * root. Every function is pure: strings in, a validated argv or the reason it was refused out.
 *
 * A command is written as an argv array (`["bin/auth-bridge.mjs", "health"]`) or, for convenience, as
 * one string that is split on whitespace without any shell rules (`"bin/auth-bridge.mjs health"`).
 * Either way no shell ever sees it, and anything a shell would interpret (quotes, `;`, `|`, `&`, `$`,
 * backticks, redirections, globs, `~`, newlines) is refused, so a manifest written for a shell fails
 * loudly instead of running something else.
 */
import * as E from 'fp-ts/lib/Either.js';

/** A validated bridge command: `program` is a normalized path relative to the plugin root. */
export interface BridgeCommand {
  /** Path of the executable or script, relative to the plugin root, `/`-separated, without `.` or `..`. */
  readonly program: string;
  /** Arguments, passed as they are (no shell). */
  readonly args: readonly string[];
}

/** Why a command was refused; `field` is filled in by the manifest decoder. */
export type CommandProblem =
  | 'empty'
  | 'not_a_command'
  | 'absolute_path'
  | 'parent_escape'
  | 'invalid_path'
  | 'shell_metacharacter'
  | 'control_character'
  | 'too_long';

/** Upper bounds of one command. */
export const COMMAND_LIMITS = { maxArgs: 64, maxArgLength: 1024, maxPathLength: 512 } as const;

/** Characters a shell would interpret; none may appear anywhere in a command. */
const SHELL_METACHARACTERS = /[;&|`$<>(){}*?!~'"\\[\]#]/;
/** C0 controls and DEL (newlines and NUL included). */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** One path segment of a program. */
const PATH_SEGMENT = /^[A-Za-z0-9._@+-]+$/;

/** Human-readable text of a {@link CommandProblem}. */
export const commandProblemText: Readonly<Record<CommandProblem, string>> = {
  empty: 'is empty',
  not_a_command: 'must be an argv array of strings or a command string',
  absolute_path: 'must be relative to the plugin root, not an absolute path',
  parent_escape: 'must stay inside the plugin root (".." is not allowed)',
  invalid_path: 'is not a plain relative path (letters, digits, ".", "_", "-", "@", "+" separated by "/")',
  shell_metacharacter: 'contains a shell metacharacter; commands run without a shell',
  control_character: 'contains a control character',
  too_long: 'is too long',
};

/**
 * Normalizes and checks the program path of a command.
 *
 * @example
 * ```ts
 * normalizeProgram('./bin/bridge.mjs'); // Right('bin/bridge.mjs')
 * normalizeProgram('/usr/bin/env');     // Left('absolute_path')
 * normalizeProgram('../x');             // Left('parent_escape')
 * ```
 */
export function normalizeProgram(path: string): E.Either<CommandProblem, string> {
  if (path.length === 0) return E.left('empty');
  if (path.length > COMMAND_LIMITS.maxPathLength) return E.left('too_long');
  if (CONTROL_CHARACTERS.test(path)) return E.left('control_character');
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) return E.left('absolute_path');
  if (SHELL_METACHARACTERS.test(path)) return E.left('shell_metacharacter');
  const segments = path.split('/').filter((segment) => segment !== '.');
  if (segments.includes('..')) return E.left('parent_escape');
  if (segments.length === 0 || segments.some((segment) => !PATH_SEGMENT.test(segment))) return E.left('invalid_path');
  return E.right(segments.join('/'));
}

/** Checks one argument; arguments are passed verbatim, so only what a shell would interpret is refused. */
export function checkArgument(arg: string): E.Either<CommandProblem, string> {
  if (arg.length > COMMAND_LIMITS.maxArgLength) return E.left('too_long');
  if (CONTROL_CHARACTERS.test(arg)) return E.left('control_character');
  if (SHELL_METACHARACTERS.test(arg)) return E.left('shell_metacharacter');
  return E.right(arg);
}

/** A problem with the index of the argv element it concerns (0 is the program). */
export interface CommandRefusal {
  readonly problem: CommandProblem;
  readonly index: number | undefined;
}

/**
 * Validates a command written as an argv array or as a whitespace-separated string.
 *
 * @example
 * ```ts
 * parseCommand(['bin/bridge.mjs', 'poll']);   // Right({ program: 'bin/bridge.mjs', args: ['poll'] })
 * parseCommand('bin/bridge.mjs poll');        // the same
 * parseCommand('bin/bridge.mjs; rm -rf ~');   // Left({ problem: 'shell_metacharacter', index: undefined })
 * ```
 */
export function parseCommand(input: unknown): E.Either<CommandRefusal, BridgeCommand> {
  let argv: readonly unknown[];
  if (typeof input === 'string') {
    if (input.length > COMMAND_LIMITS.maxArgLength * 4) return E.left({ problem: 'too_long', index: undefined });
    if (CONTROL_CHARACTERS.test(input.replace(/[\t ]/g, ' '))) return E.left({ problem: 'control_character', index: undefined });
    if (SHELL_METACHARACTERS.test(input)) return E.left({ problem: 'shell_metacharacter', index: undefined });
    argv = input.split(/[\t ]+/).filter((part) => part.length > 0);
  } else if (Array.isArray(input)) {
    argv = input;
  } else {
    return E.left({ problem: 'not_a_command', index: undefined });
  }
  if (argv.length === 0) return E.left({ problem: 'empty', index: undefined });
  if (argv.length > COMMAND_LIMITS.maxArgs) return E.left({ problem: 'too_long', index: undefined });
  const [first, ...rest] = argv;
  if (typeof first !== 'string') return E.left({ problem: 'not_a_command', index: 0 });
  const program = normalizeProgram(first);
  if (E.isLeft(program)) return E.left({ problem: program.left, index: 0 });
  const args: string[] = [];
  for (const [offset, arg] of rest.entries()) {
    if (typeof arg !== 'string') return E.left({ problem: 'not_a_command', index: offset + 1 });
    const checked = checkArgument(arg);
    if (E.isLeft(checked)) return E.left({ problem: checked.left, index: offset + 1 });
    args.push(checked.right);
  }
  return E.right({ program: program.right, args });
}
