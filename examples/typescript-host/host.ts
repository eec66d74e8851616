/**
 * A host of the Wework desktop executor in TypeScript, through `@wework/host-client`: the twin of
 * `examples/python-host/host.py`, step for step, with the client doing what host.py does by hand (the
 * child process, framing, request ids, the event stream's cursor, answering `card/show`).
 *
 * It starts the executor over stdio, creates a task, sends one message whose turn calls the forms
 * plugin's `choose_strategy` tool, answers the plugin's form card, checks that malformed requests are
 * refused (invalid params, an unknown task, an unknown method), and prints a summary as its last line
 * (one JSON object, host.py's keys). The exit code is 0 only when every step held.
 *
 * Options and environment variables: README.md next to this file (those of host.py).
 *
 * @example
 * ```sh
 * node examples/dist/runScripted.js node examples/dist/typescript-host/host.js
 * ```
 */
import { existsSync, realpathSync } from 'node:fs';
import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/lib/Either.js';
import { isRecord } from '@wework/decode-issues';
import { describeHostClientError, type HostClient, type HostClientError, type HostEvent, type StreamNotice } from '@wework/host-client';
import { defaultServePath, spawnExecutor, type ExecutorProcess } from '@wework/host-client/node';
import type { HostCard, HostMethod, HostParamsOf, HostReply, HostResultOf } from '@wework/host-protocol';

/** How much of the executor's log (its stderr) is kept, shown when a step fails. */
const LOG_TAIL = 64 * 1024;

/** A step did not hold; the message says which and why. */
class Failure extends Error {}

/** The command line, as host.py reads it. */
interface Args {
  readonly serve: string;
  readonly executorHome: string;
  readonly workspace: string;
  readonly node: string;
  readonly waitForPlugin: ReadonlyArray<string>;
  readonly model: string | null;
  readonly choose: string;
  readonly message: string;
  readonly taskId: string;
  /** Seconds to wait for each answer. */
  readonly timeout: number;
  /** Seconds to wait for the turn. */
  readonly turnTimeout: number;
}

/** An error reply's wire code, `data.tag` and message; nulls for a result. */
interface Refusal {
  readonly code: number | null;
  readonly tag: string | null;
  readonly message: string | null;
}

/** What a card answer and a tool call leave in the summary. */
type CardRecord =
  | { readonly cardId: string; readonly kind: string; readonly answered: null; readonly error: HostCard['error'] | null }
  | { readonly cardId: string; readonly kind: string; readonly answered: Record<string, { answers: string[] }>; readonly values: Record<string, unknown> };
interface ToolRecord {
  readonly server: string;
  readonly tool: string;
  readonly status: string;
  readonly output: string;
}

const write = (text: string): void => void process.stdout.write(text);
const print = (text = ''): void => write(`${text}\n`);
const seconds = (ms: number): string => `${Number((ms / 1000).toPrecision(6))}`;
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Prints the turn as it streams, answers its cards, and keeps what the summary reports. */
class Transcript {
  readonly seqs: number[] = [];
  readonly notices: StreamNotice[] = [];
  readonly cards: CardRecord[] = [];
  readonly tools: ToolRecord[] = [];
  text = '';
  private itemId: string | null = null;

  constructor(private readonly choose: string) {}

  /** Every notification, decoded by the client; `seq` is the client's cursor once it took the event. */
  notification(event: HostEvent, seq: number): void {
    this.seqs.push(seq);
    switch (event.method) {
      case 'transcript/agentMessageDelta':
        if (event.params.itemId !== this.itemId) {
          this.itemId = event.params.itemId;
          write('< codex: ');
        }
        this.text += event.params.delta;
        write(event.params.delta);
        return;
      case 'transcript/item': {
        const { item, phase } = event.params;
        if (item.type === 'agentMessage' && phase === 'completed') print();
        if (item.type !== 'mcpToolCall') return;
        const call = `${item.server}.${item.tool}`;
        if (phase === 'started') return print(`  tool ${call} ${JSON.stringify(item.arguments ?? null)}`);
        const output = (item.result?.content ?? []).map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('\n');
        this.tools.push({ server: item.server, tool: item.tool, status: item.status, output });
        return print(`  tool ${call} ${item.status}: ${JSON.stringify(output)}`);
      }
      case 'transcript/turnCompleted':
        return print(`  turn ${event.params.turn.status}`);
      default:
        return;
    }
  }

  /** A form: each question gets the option whose value (or label) is the chosen one, else its default. */
  card(card: HostCard): HostReply {
    print(`  card ${card.kind} (${card.origin}) from ${card.serverName}: ${card.message}`);
    if (card.kind !== 'form' || (card.error ?? null) !== null) {
      // Not a form, or our answer was refused: do not loop.
      this.cards.push({ cardId: card.cardId, kind: card.kind, answered: null, error: card.error ?? null });
      return { action: card.kind === 'approval' ? 'decline' : 'cancel' };
    }
    const answers: Record<string, { answers: string[] }> = {};
    const values: Record<string, unknown> = {};
    for (const question of card.questions) {
      const options = question.options ?? [];
      print(`    ${question.question} ${options.map((option) => `${option.label}=${JSON.stringify(option.value ?? null)}`).join(', ')}`);
      const picked = options.find((option) => option.value === this.choose || option.label.toLowerCase() === this.choose.toLowerCase());
      answers[question.id] = { answers: picked === undefined ? [...question.defaultAnswers] : [picked.label] };
      values[question.id] = picked === undefined ? null : (picked.value ?? null);
      print(`    -> ${JSON.stringify(answers[question.id]?.answers)}`);
    }
    this.cards.push({ cardId: card.cardId, kind: card.kind, answered: answers, values });
    return { answers };
  }
}

/** `(code, data.tag, message)` of an error; nulls for a result. */
const refusalOf = (answer: E.Either<HostClientError, unknown>): Refusal =>
  E.isRight(answer)
    ? { code: null, tag: null, message: null }
    : answer.left._tag === 'ExecutorError'
      ? { code: answer.left.code, tag: answer.left.data?.tag ?? null, message: answer.left.message }
      : { code: null, tag: answer.left._tag, message: answer.left.message };

/**
 * The steps in order; each records what it saw in `summary` and throws a {@link Failure} when it does not
 * hold. `stopped` aborts every request in flight (SIGTERM, SIGINT).
 */
async function run(args: Args, summary: Record<string, unknown>, stopped: AbortSignal): Promise<void> {
  const transcript = new Transcript(args.choose);
  /** The methods the client wrote to the executor (its `tap`): what shows that a request never left. */
  const written: string[] = [];
  const spawned = await spawnExecutor({
    transport: 'stdio',
    servePath: args.serve,
    executorHome: args.executorHome,
    workspace: args.workspace,
    waitForPlugins: args.waitForPlugin,
    stderrMaxChars: LOG_TAIL,
    stopStepMs: 15_000,
    client: {
      // host.py sends its own events/subscribe after executor/info; so does this host.
      resumeOnConnect: false,
      requestTimeoutMs: args.timeout * 1000,
      longRunningTimeoutMs: args.turnTimeout * 1000,
      tap: (direction, message) => {
        if (direction === 'toExecutor' && isRecord(message) && typeof message['method'] === 'string') written.push(message['method']);
      },
    },
  });
  if (E.isLeft(spawned)) {
    const tail = 'stderrTail' in spawned.left ? spawned.left.stderrTail : '';
    if (tail !== '') process.stderr.write(`--- the executor's log (tail) ---\n${tail}\n`);
    throw new Failure(`the executor could not be started: ${spawned.left.message}`);
  }
  const executor: ExecutorProcess = spawned.right;
  const client: HostClient = executor.client;
  const violations: string[] = [];
  client.onViolation((violation) => violations.push(violation.message));
  client.onStreamNotice((notice) => transcript.notices.push(notice));
  client.onEvent((event) => transcript.notification(event, client.lastSeq()));
  client.onCard((card) => transcript.card(card));

  /** The exit code once the executor ended (waiting up to 5 s), else null. */
  const exitCode = async (): Promise<number | null> => (await Promise.race([executor.exited, delay(5_000).then(() => null)]))?.code ?? null;

  /** Why a request got no answer at all: the reasons host.py gives. */
  const noAnswer = async (method: string, error: HostClientError): Promise<Failure> => {
    if (stopped.aborted) return stopped.reason as Failure;
    if (violations.length > 0) return new Failure(`the executor wrote ${violations[0]}`);
    switch (error._tag) {
      case 'TimedOut':
        return new Failure(`no answer to ${method} within ${seconds(error.timeoutMs)} s`);
      case 'Disconnected':
        return new Failure(`the executor ended (exit code ${await exitCode()}) while ${method} waited for its answer`);
      default:
        return new Failure(`${method}: ${describeHostClientError(error)}`);
    }
  };

  /** A request whose error is a step's outcome: the refusal, or a failure when there was no answer. */
  const refused = async <M extends HostMethod>(method: M, params: HostParamsOf<M>, timeoutMs?: number): Promise<Refusal> => {
    const answer = await client.request(method, params, { signal: stopped, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    if (E.isLeft(answer) && answer.left._tag !== 'ExecutorError' && answer.left._tag !== 'InvalidRequest') throw await noAnswer(method, answer.left);
    if (violations.length > 0) throw new Failure(`the executor wrote ${violations[0]}`);
    return refusalOf(answer);
  };

  /** A request that must succeed: its result, else a failure naming the refusal. */
  const call = async <M extends HostMethod>(method: M, params: HostParamsOf<M>, timeoutMs?: number): Promise<HostResultOf<M>> => {
    const answer = await client.request(method, params, { signal: stopped, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    if (violations.length > 0) throw new Failure(`the executor wrote ${violations[0]}`);
    if (E.isRight(answer)) return answer.right;
    if (answer.left._tag === 'ExecutorError') {
      const { code, tag, message } = refusalOf(answer);
      throw new Failure(`${method} was refused: ${code} ${message} (tag ${tag})`);
    }
    throw await noAnswer(method, answer.left);
  };

  let held = false;
  try {
    const info = await call('executor/info', {});
    Object.assign(summary, { executor: info.executor, protocolVersion: info.protocolVersion, codexUserAgent: info.codexUserAgent });
    print(`executor ${info.executor}, protocol ${info.protocolVersion}, codex ${info.codexUserAgent}`);
    const subscribed = await call('events/subscribe', {});
    summary['subscribed'] = { reset: subscribed.reset, seq: subscribed.seq };
    const selection = { model: args.model, options: { permissionMode: 'workspace' } };
    const execution = { workspace: args.workspace };
    const { task } = await call('task/create', { taskId: args.taskId, modelSelection: selection, executionRequest: execution });
    summary['task'] = { taskId: task.taskId, threadId: task.threadId };
    Object.assign(summary, { cards: transcript.cards, tools: transcript.tools }); // filled as the turn streams
    print(`> you: ${args.message}`);
    const sent = await call('message/send', { taskId: args.taskId, markdown: args.message }, args.turnTimeout * 1000);
    Object.assign(summary, { send: { status: sent.status, error: sent.error }, agentMessage: transcript.text });
    if (sent.status !== 'completed') throw new Failure(`the turn ended ${sent.status}: ${JSON.stringify(sent.error)}`);
    if (!transcript.cards.some((card) => card.answered !== null) || !transcript.tools.some((tool) => tool.status === 'completed')) {
      throw new Failure('the turn had no answered form card or no completed tool call');
    }
    // Params that do not decode: the typed client would not compile them, but it sends what does not fit
    // its codec as given, and the executor is the judge: -32602, the message naming the field and the
    // expected type, never the value.
    const malformed: unknown = { taskId: 7, modelSelection: { model: null }, executionRequest: execution };
    const invalid = await refused('task/create', malformed as HostParamsOf<'task/create'>);
    summary['invalidParams'] = invalid;
    if (invalid.code !== -32602 || invalid.tag !== 'InvalidHostParams' || !String(invalid.message).includes('params.taskId')) {
      throw new Failure(`task/create with a number for taskId was not refused with -32602, tag InvalidHostParams, naming params.taskId: ${invalid.code} ${invalid.tag} ${invalid.message}`);
    }
    // A method's own refusal carries the typed error's tag in data.tag.
    const unknownTask = await refused('message/send', { taskId: 'no-such-task', markdown: 'hello' }, args.timeout * 1000);
    summary['unknownTask'] = { code: unknownTask.code, tag: unknownTask.tag };
    if (unknownTask.code !== -32001 || unknownTask.tag !== 'TaskNotFound') {
      throw new Failure(`message/send to an unknown task was not refused with -32001, tag TaskNotFound: ${unknownTask.code} ${unknownTask.tag} ${unknownTask.message}`);
    }
    // An unknown method: the typed client has no such request, and at run time it refuses it itself
    // (InvalidRequest) without writing it, so the executor never sees it.
    const unknownMethod = await refused('no/suchMethod' as HostMethod, {});
    summary['unknownMethod'] = { code: unknownMethod.code, tag: unknownMethod.tag };
    if (unknownMethod.tag !== 'InvalidRequest' || written.includes('no/suchMethod')) {
      throw new Failure(`an unknown method was not refused by the client before it was sent: ${unknownMethod.code} ${unknownMethod.tag} ${unknownMethod.message}`);
    }
    await call('task/archive', { taskId: args.taskId });
    // One seq counter for all notifications: on one connection each is one past the previous. The
    // client drops a duplicate and asks again after a gap; either is a notice, and fails the step.
    summary['notifications'] = transcript.seqs.length;
    if (transcript.notices.length > 0 || transcript.seqs.some((seq, at) => at > 0 && seq !== (transcript.seqs[at - 1] ?? 0) + 1)) {
      throw new Failure(`the notifications' seq has a gap or a duplicate: ${JSON.stringify(transcript.seqs)} ${JSON.stringify(transcript.notices.map((notice) => `${notice._tag} ${notice.seq}`))}`);
    }
    held = true;
  } finally {
    summary['executorExitCode'] = (await executor.stop()).code;
    if (!held) process.stderr.write(`--- the executor's log (tail) ---\n${executor.stderr()}\n`);
  }
}

const USAGE = `usage: host.js [-h] [--serve SERVE] [--executor-home EXECUTOR_HOME] [--workspace WORKSPACE] [--node NODE]
               [--wait-for-plugin WAIT_FOR_PLUGIN] [--model MODEL] [--choose CHOOSE] [--message MESSAGE]
               [--task-id TASK_ID] [--timeout TIMEOUT] [--turn-timeout TURN_TIMEOUT]`;

/** Bad arguments: the usage and the reason on stderr, exit code 2 (as argparse does). */
function usageError(reason: string): never {
  process.stderr.write(`${USAGE}\nhost.js: error: ${reason}\n`);
  process.exit(2);
}

/** The arguments and environment variables of host.py, with its defaults. */
function parse(argv: ReadonlyArray<string>): Args {
  const env = process.env;
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        serve: { type: 'string', default: env['WEWORK_SERVE_JS'] ?? defaultServePath() ?? 'apps/desktop-executor/dist/serve.js' },
        'executor-home': { type: 'string' },
        workspace: { type: 'string' },
        node: { type: 'string', default: env['NODE'] ?? 'node' },
        'wait-for-plugin': { type: 'string', multiple: true },
        model: { type: 'string' },
        choose: { type: 'string', default: 'safe' },
        message: { type: 'string', default: "Call the forms plugin's choose_strategy tool, then say which strategy was chosen." },
        'task-id': { type: 'string', default: 'typescript-host-1' },
        timeout: { type: 'string', default: '120' },
        'turn-timeout': { type: 'string', default: '300' },
      },
    }));
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) {
    print(`${USAGE}\n\nDrives the Wework desktop executor through @wework/host-client (see README.md).`);
    process.exit(0);
  }
  const number = (name: 'timeout' | 'turn-timeout'): number => {
    const value = Number(values[name]);
    return Number.isFinite(value) && value > 0 ? value : usageError(`argument --${name}: invalid positive number: '${values[name]}'`);
  };
  const executorHome = values['executor-home'] ?? env['WEWORK_EXECUTOR_HOME'];
  const workspace = values.workspace ?? env['WEWORK_WORKSPACE'];
  if (executorHome === undefined || executorHome === '' || workspace === undefined || workspace === '') {
    usageError('--executor-home and --workspace (or WEWORK_EXECUTOR_HOME and WEWORK_WORKSPACE) are required');
  }
  if (!existsSync(values.serve)) usageError(`the executor's serve entry ${values.serve} is missing; build it: npx nx build desktop-executor`);
  return {
    serve: values.serve,
    executorHome,
    workspace,
    node: values.node,
    waitForPlugin: values['wait-for-plugin'] ?? ['forms'],
    model: values.model ?? null,
    choose: values.choose,
    message: values.message,
    taskId: values['task-id'],
    timeout: number('timeout'),
    turnTimeout: number('turn-timeout'),
  };
}

/** Whether `path` (a command or a path) is the Node running this host. */
function isThisNode(path: string): boolean {
  if (path === 'node' || path === process.execPath) return true;
  try {
    return realpathSync(path) === realpathSync(process.execPath);
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  if (!isThisNode(args.node)) {
    // spawnExecutor runs the serve entry with the Node that runs it.
    process.stderr.write(`note: the executor runs with this host's Node (${process.execPath}); --node ${args.node} is not used\n`);
  }
  const stopping = new AbortController();
  for (const name of ['SIGTERM', 'SIGINT'] as const) {
    // Once; the executor is stopped on the way out, and a second signal is ignored.
    process.on(name, () => stopping.abort(new Failure(`stopped by signal ${constants.signals[name]}`)));
  }
  const summary: Record<string, unknown> = { ok: false };
  try {
    await run(args, summary, stopping.signal);
    summary['ok'] = true;
  } catch (error) {
    summary['failure'] = error instanceof Failure ? error.message : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(`FAILED: ${String(summary['failure'])}\n`);
  }
  print(JSON.stringify(summary));
  return summary['ok'] === true ? 0 : 1;
}

const code = await main();
process.stdout.write('', () => process.exit(code));
