import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

/** Memory of the serve process after a full GC (process.memoryUsage). */
export interface ChildMemory {
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  rss: number;
}

/** A `serve` child (soak-serve.ts) driven over its web API: one turn at a time, memory on request. */
export interface ServeChild {
  url: string;
  /** Sends one message to a conversation and resolves with its turn's end reason once it has ended. */
  send(conversationId: string, text: string): Promise<string>;
  /** Heap after a full GC and RSS of the child. */
  memory(): Promise<ChildMemory>;
  /** CPU time (user and system) the child has used so far, in ms. */
  cpuMs(): Promise<number>;
  /** Stops the serve as SIGTERM would (killed after 10 s). */
  stop(): Promise<void>;
}

/**
 * Starts `serve` in a child (with --expose-gc and an IPC channel for the memory probe) with `args`
 * after `--port 0 --token TOKEN`, and connects to its event socket. `signal` kills it.
 */
export async function startServeChild(options: {
  args: string[];
  token: string;
  signal: AbortSignal;
}): Promise<ServeChild> {
  const { token } = options;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      fileURLToPath(new URL('./soak-serve.ts', import.meta.url)),
      ...['--port', '0', '--token', token],
      ...options.args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1' } },
  );
  const kill = (): void => void child.kill('SIGKILL');
  options.signal.addEventListener('abort', kill, { once: true });
  let socket: WebSocket | undefined;
  const stop = async (): Promise<void> => {
    socket?.close();
    options.signal.removeEventListener('abort', kill);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send('stop');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      child.kill('SIGKILL');
    }
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const found = /serving at (http:\/\/\S+?)#token=/.exec(text);
        if (found) resolve(found[1]!);
      });
      let errors = '';
      child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${errors}`)));
    });
    // A turn may end before chat/send's answer arrives: ended turns are remembered until asked for.
    const ends = new Map<string, (reason: string) => void>();
    const ended = new Map<string, string>();
    socket = new WebSocket(`${url.replace('http', 'ws')}api/events?token=${token}`);
    socket.on('message', (data: Buffer) => {
      const event = JSON.parse(data.toString()) as { type?: string; turnId?: string; reason?: string };
      if (event.type !== 'turn/end' || event.turnId === undefined) return;
      ended.set(event.turnId, event.reason ?? '');
      ends.get(event.turnId)?.(event.reason ?? '');
    });
    await new Promise<void>((resolve, reject) => {
      socket!.once('open', () => resolve());
      socket!.once('error', reject);
    });
    return {
      url,
      send: async (conversationId, text) => {
        const response = await fetch(`${url}api/chat/send`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ conversationId, text }),
          signal: options.signal,
        });
        const answer = (await response.json()) as { ok: boolean; result?: { turnId: string } };
        if (!answer.ok || answer.result === undefined) throw new Error(`chat/send failed: ${JSON.stringify(answer)}`);
        const { turnId } = answer.result;
        const reason = ended.get(turnId) ?? (await new Promise<string>((resolve) => ends.set(turnId, resolve)));
        ends.delete(turnId);
        ended.delete(turnId);
        return reason;
      },
      memory: () =>
        new Promise<ChildMemory>((resolve) => {
          child.once('message', (message) => resolve(message as ChildMemory));
          child.send('memory');
        }),
      cpuMs: () =>
        new Promise<number>((resolve) => {
          child.once('message', (message) => resolve((message as { cpuMs: number }).cpuMs));
          child.send('cpu');
        }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
