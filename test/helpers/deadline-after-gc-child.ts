// Run with `node --expose-gc`: prints whether a deadline inside AbortSignal.any still fires after
// the garbage collector ran while it waited (test/core/text/deadline-signal.test.ts).
import { deadlineSignal } from '../../core/text/deadline-signal.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const caller = new AbortController();
const signal = AbortSignal.any([caller.signal, deadlineSignal(200)]);
const keepAlive = setTimeout(() => {
  process.stdout.write('never fired\n');
}, 3000);
signal.addEventListener('abort', () => {
  clearTimeout(keepAlive);
  process.stdout.write(`fired ${(signal.reason as Error).name}\n`);
});
// The collector runs while the deadline waits, as it does on a busy host.
setTimeout(gc, 20);
setTimeout(gc, 60);
