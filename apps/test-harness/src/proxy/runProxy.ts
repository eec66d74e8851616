/**
 * The proxy's process plumbing: start the MCP server, pass stdin and stdout through unchanged
 * (stderr is inherited, so it is forwarded as is), append every newline-delimited message of
 * each direction to the log (lines cut by `createLineSplitter` of `@wework/jsonrpc`; a line over its
 * bound is logged by its start only), and end with the server's exit code.
 *
 * Lifecycle: when the proxy's stdin closes, the server's stdin is closed too and the server
 * gets `stopGraceMs` to exit before SIGTERM (then SIGKILL after `killGraceMs`). On SIGTERM,
 * SIGINT or SIGHUP the proxy sends SIGTERM to the server (SIGKILL after `killGraceMs`).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { createLineSplitter, type LineFrame } from '@wework/jsonrpc';
import { formatLogEntry, logEntry, type Direction } from './ProxyLog.js';
import type { ProxyArguments } from './ProxyArguments.js';

/** The process the proxy runs in (its stdio and signals). */
export interface ProxyProcess {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
  onSignal(signal: NodeJS.Signals, listener: () => void): void;
}

/** Timing of {@link runProxy}. */
export interface ProxyTimings {
  /** How long the server may take to exit by itself after its stdin closed. Default 1000 ms. */
  readonly stopGraceMs?: number;
  /** How long SIGTERM gets before SIGKILL. Default 2000 ms. */
  readonly killGraceMs?: number;
}

/** Exit code when the log cannot be opened. */
export const EXIT_LOG_UNAVAILABLE = 73;
/** Exit code when the command cannot be started (as a shell reports a missing command). */
export const EXIT_COMMAND_NOT_FOUND = 127;

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal === null ? undefined : constants.signals[signal];
  return 128 + (number ?? 0);
}

/**
 * Runs the proxy until the server exits; resolves with the exit code the proxy should end with.
 */
export function runProxy(proxy: ProxyArguments, io: ProxyProcess, timings: ProxyTimings = {}): Promise<number> {
  const stopGraceMs = timings.stopGraceMs ?? 1000;
  const killGraceMs = timings.killGraceMs ?? 2000;
  let fd: number;
  try {
    fd = openSync(proxy.logFile, 'a');
  } catch (e) {
    io.stderr.write(`mcp-proxy: cannot open log ${proxy.logFile}: ${e instanceof Error ? e.message : String(e)}\n`);
    return Promise.resolve(EXIT_LOG_UNAVAILABLE);
  }

  let seq = 0;
  const decoder = new TextDecoder();
  const record = (direction: Direction, line: Uint8Array): void => {
    const text = decoder.decode(line);
    if (text.trim() === '') return;
    writeSync(fd, formatLogEntry(logEntry(seq, new Date().toISOString(), direction, text)));
    seq += 1;
  };
  const recordFrames = (direction: Direction, frames: readonly LineFrame[]): void => {
    for (const frame of frames) {
      if (frame._tag === 'Line') record(direction, frame.bytes);
      else writeSync(fd, formatLogEntry({ seq: seq++, at: new Date().toISOString(), direction, raw: frame.prefix, error: `a line longer than ${frame.limitBytes} bytes, logged by its start only` }));
    }
  };
  const tap = (stream: Readable, direction: Direction): (() => void) => {
    const splitter = createLineSplitter();
    stream.on('data', (chunk: Uint8Array | string) => recordFrames(direction, splitter.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk)));
    return () => recordFrames(direction, splitter.end());
  };

  return new Promise<number>((resolve) => {
    const child = spawn(proxy.command, [...proxy.args], { stdio: ['pipe', 'pipe', 'inherit'] });
    const timers: NodeJS.Timeout[] = [];
    const later = (ms: number, action: () => void): void => {
      const timer = setTimeout(action, ms);
      timer.unref();
      timers.push(timer);
    };
    const running = (): boolean => child.exitCode === null && child.signalCode === null;
    const terminate = (): void => {
      if (!running()) return;
      child.kill('SIGTERM');
      later(killGraceMs, () => {
        if (running()) child.kill('SIGKILL');
      });
    };

    child.stdin.on('error', () => undefined);
    // The client went away (EPIPE): nobody reads the server any more.
    io.stdout.on('error', terminate);
    const flushClient = tap(io.stdin, 'client-to-server');
    const flushServer = tap(child.stdout, 'server-to-client');
    io.stdin.pipe(child.stdin);
    child.stdout.pipe(io.stdout, { end: false });
    io.stdin.on('end', () => {
      flushClient();
      later(stopGraceMs, terminate);
    });
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) io.onSignal(signal, terminate);

    let settled = false;
    const finish = (code: number): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      io.stdin.unpipe(child.stdin);
      io.stdin.pause();
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
      resolve(code);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      io.stderr.write(`mcp-proxy: cannot start ${proxy.command}: ${error.message}\n`);
      finish(error.code === 'EACCES' ? 126 : EXIT_COMMAND_NOT_FOUND);
    });
    child.on('close', (code, signal) => {
      flushServer();
      finish(exitCodeOf(code, signal));
    });
  });
}
