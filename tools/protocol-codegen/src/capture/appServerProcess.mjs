/**
 * Starts the pinned `codex app-server` with a private CODEX_HOME and HOME, in its own process
 * group, and stops the whole group.
 */
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';
import { resolveCodexCli } from '../codexBinary.mjs';

/**
 * @param {{ codexHome: string, home: string, cwd: string }} dirs
 */
export async function startAppServer({ codexHome, home, cwd }) {
  const cli = await resolveCodexCli();
  const child = spawn(process.execPath, [cli.script, 'app-server'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', CODEX_HOME: codexHome, HOME: home, RUST_LOG: 'warn' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  /** @type {string[]} */
  const stderr = [];
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    stderr,
    version: cli.version,
    /** Stops the app-server and everything it started (its process group). */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const pid = child.pid;
      if (pid === undefined) return;
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
