// Child process of the soak bench: one real `home-agent serve` (runServeCommand, in this process so
// it can be measured), plus a probe on the IPC channel: 'memory' answers heap after a full GC and
// RSS (and the rest of process.memoryUsage); 'cpu' answers the CPU time this process used so far,
// in ms; 'stop' stops the serve as SIGTERM would. Run with --expose-gc.
import { runServeCommand } from '../../host/front/web/serve-command.ts';

const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined || process.send === undefined) throw new Error('run with --expose-gc and an IPC channel');
const stop = new AbortController();
process.on('message', (message: unknown) => {
  if (message === 'stop') stop.abort();
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMs: (user + system) / 1000 });
    return;
  }
  if (message !== 'memory') return;
  collect();
  collect();
  process.send?.(process.memoryUsage());
});
const code = await runServeCommand(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  signal: stop.signal,
});
process.exit(code);
