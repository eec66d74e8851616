/**
 * Finds the executor's app-server process through /proc (the executor's direct child running
 * `codex app-server`), so a test can kill it the way a crash would.
 */
import { readdir, readFile } from 'node:fs/promises';

/** The pid of the executor's running app-server child, or undefined when none runs. */
export async function appServerPid(executorPid: number): Promise<number | undefined> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== executorPid || fields[0] === 'Z') continue;
      const commandLine = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0');
      if (commandLine.includes('app-server')) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

/** SIGKILLs the executor's app-server; returns its pid. */
export async function killAppServer(executorPid: number): Promise<number> {
  const pid = await appServerPid(executorPid);
  if (pid === undefined) throw new Error('the executor runs no app-server');
  process.kill(pid, 'SIGKILL');
  return pid;
}
