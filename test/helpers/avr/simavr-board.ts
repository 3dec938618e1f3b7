import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { buildSimavrHarness } from './build-harness.ts';
import { openRawLineClient, type RawLineClient } from './raw-line-client.ts';

/** A simulated ATmega328P running a firmware image, its UART0 on a pseudo-terminal. */
export interface SimavrBoard {
  /** The pseudo-terminal's slave path (`/dev/pts/N`), new for every start. */
  readonly ptyPath: string;
  /** The simulator's process id (the bench reads its CPU time). */
  readonly pid: number | undefined;
  /** Resolves when the simulator has exited (killed, or crashed). */
  readonly exited: Promise<void>;
  /** Drives an input pin, e.g. `setPin('D2', 0)` presses a button wired to ground. */
  setPin(pin: string, level: 0 | 1): Promise<void>;
  /** Puts `millivolts` on analog input `channel`. */
  setAnalog(channel: number, millivolts: number): Promise<void>;
  /** Reads one byte of the chip's data space (an I/O register, e.g. 0x88 = OCR1AL). */
  peek(address: number): Promise<number>;
  /** The deepest the stack has reached, in bytes, given where static RAM ends (0x100 + .data + .bss). */
  stackPeak(staticEnd: number): Promise<number>;
  /** Stops the chip as soon as the next request line reaches its UART; resolves then. */
  freezeOnNextRequest(): Promise<{ frozen: Promise<void> }>;
  /** How many of the chip's cycles UART0 takes to carry one byte, at the baud rate the sketch set. */
  uartByteCycles(): Promise<number>;
  /** Resets the chip (its reset button): the sketch starts again while the port stays open. */
  reset(): Promise<void>;
  /** Kills the simulator at once, as pulling the board's cable: its pseudo-terminal vanishes. */
  kill(): Promise<void>;
}

/**
 * Starts the simavr harness on `elfPath`, paced to a real 16 MHz clock. The harness exits when its
 * stdin closes, so it dies with this process even when this process is killed; `kill()` ends it sooner.
 */
export async function startSimavrBoard(options: {
  elfPath: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<SimavrBoard> {
  const executable = await buildSimavrHarness();
  const child = spawn(executable, [options.elfPath], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4000)));
  const waiters = new Set<(line: string) => boolean>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    for (const waiter of [...waiters]) if (waiter(line)) waiters.delete(waiter);
  });
  const nextLine = (test: (line: string) => boolean, what: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const onExit = (): void => reject(new Error(`simavr exited while waiting for ${what}: ${stderr.trim()}`));
      void exited.then(onExit);
      waiters.add((line) => {
        if (!test(line)) return false;
        resolve(line);
        return true;
      });
    });
  const command = async (line: string, answer: (reply: string) => boolean): Promise<string> => {
    const reply = nextLine(answer, line);
    child.stdin.write(`${line}\n`);
    return reply;
  };
  const kill = async (): Promise<void> => {
    child.kill('SIGKILL');
    await exited;
  };

  const timeoutMs = options.timeoutMs ?? 10_000;
  let ptyPath: string;
  try {
    const started = nextLine((line) => line.startsWith('pty '), 'its pseudo-terminal');
    const timeout = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])]);
    ptyPath = await new Promise<string>((resolve, reject) => {
      timeout.addEventListener('abort', () => reject(new Error(`simavr did not start within ${timeoutMs} ms`)), {
        once: true,
      });
      started.then((line) => resolve(line.slice(4)), reject);
    });
  } catch (error) {
    await kill();
    throw error;
  }
  return {
    ptyPath,
    pid: child.pid,
    exited,
    async setPin(pin, level) {
      await command(`pin ${pin} ${level}`, (line) => line === `pin ${pin} ${level}`);
    },
    async setAnalog(channel, millivolts) {
      await command(`adc ${channel} ${millivolts}`, (line) => line === `adc ${channel} ${millivolts}`);
    },
    async peek(address) {
      const hex = `0x${address.toString(16).padStart(2, '0')}`;
      const line = await command(`peek ${hex}`, (reply) => reply.startsWith(`peek ${hex} `));
      return Number(line.split(' ')[2]);
    },
    async stackPeak(staticEnd) {
      const line = await command(`stack-peak 0x${staticEnd.toString(16)}`, (reply) => reply.startsWith('stack-peak '));
      return Number(line.split(' ')[1]);
    },
    async freezeOnNextRequest() {
      const frozen = nextLine((line) => line === 'frozen', 'the chip to freeze').then(() => undefined);
      await command('freeze-on-request', (line) => line === 'armed');
      return { frozen };
    },
    async uartByteCycles() {
      const line = await command('uart-byte-cycles', (reply) => reply.startsWith('uart-byte-cycles '));
      return Number(line.split(' ')[1]);
    },
    async reset() {
      await command('reset', (line) => line === 'reset');
    },
    kill,
  };
}

/**
 * A raw line client on a board that is listening. Bytes sent before the sketch has opened its UART
 * are lost (as on a real board still in its bootloader), and a loaded machine can slow the simulated
 * chip's start that much: so hello is asked until one is answered, as the host's session does, and
 * the answers to every hello after that one are taken too, so none is left for the test to read.
 */
export async function openListeningBoard(board: SimavrBoard): Promise<RawLineClient> {
  const client = await openRawLineClient(board.ptyPath);
  try {
    const firstId = 900_001;
    let lastId = firstId - 1;
    let answered: number | undefined;
    for (let attempt = 0; answered === undefined; attempt++) {
      if (attempt === 40) throw new Error(`${board.ptyPath}: the sketch answered none of 40 hellos`);
      lastId += 1;
      await client.write(`{"id":${lastId},"op":"hello"}\n`);
      answered = (await client.nextResponse(250))?.id;
    }
    for (let id = answered + 1; id <= lastId; id++) {
      if ((await client.nextResponse(10_000))?.id !== id) throw new Error(`${board.ptyPath}: hello ${id} unanswered`);
    }
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}
