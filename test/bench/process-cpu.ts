import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) another process has used so far, in ms, from /proc/PID/stat (10 ms
 * steps); undefined where there is no /proc or the process is gone.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    // No /proc here, or the process has exited: the figure is left out, never guessed.
    return undefined;
  }
}

/** The machine's load average over the last minute, rounded to a tenth (beside every wall-clock figure). */
export function loadAverage1m(): number {
  return Math.round(loadavg()[0]! * 10) / 10;
}
