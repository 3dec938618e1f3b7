import { spawn, spawnSync } from 'node:child_process';
import { homeAgentCommand } from './compiled-entries.ts';
import { mosquittoMissing, TEST_USERS, type Mosquitto } from './mosquitto.ts';
import { REPO_ROOT } from './run-cli.ts';
import { PrintedText } from './printed-text.ts';

/** The broker passwords of the test accounts, by the variables `--mqtt-password-env` names in the bridge tests. */
export const BRIDGE_TEST_ENV = {
  BRIDGE_PW: TEST_USERS.bridge.password,
  HOST_PW: TEST_USERS.host.password,
  DEVICE_PW: TEST_USERS.device.password,
} as const;

/** Why a bridge over simulated serial devices cannot run here (Mosquitto or socat missing, naming the apt-get line), or undefined. */
export function bridgeRigMissing(): string | undefined {
  return (
    mosquittoMissing() ??
    (spawnSync('socat', ['-V'], { stdio: 'ignore' }).status !== 0
      ? 'socat is missing: apt-get install socat'
      : undefined)
  );
}

/**
 * Runs `home-agent bridge` on `mosquitto` as its user `bridge` (password from BRIDGE_PW), keeping its
 * state in `dataDir`, offering the serial devices at `devicePaths` (and `--sim` when `sim`), named
 * `name` when given; `args` are added after. Resolves as `startBridgeProcess` does.
 */
export function startBridgeOn(
  mosquitto: Mosquitto,
  options: { dataDir: string; name?: string; devicePaths?: readonly string[]; sim?: boolean; args?: string[] },
): Promise<BridgeProcess> {
  return startBridgeProcess({
    args: [
      '--mqtt',
      mosquitto.url('bridge'),
      '--mqtt-password-env',
      'BRIDGE_PW',
      ...(options.name !== undefined ? ['--name', options.name] : []),
      '--data-dir',
      options.dataDir,
      ...(options.sim === true ? ['--sim'] : []),
      ...(options.devicePaths ?? []).flatMap((devicePath) => ['--device', devicePath]),
      ...(options.args ?? []),
    ],
    env: BRIDGE_TEST_ENV,
  });
}

/** A running bridge process and what it printed. */
export interface BridgeProcess {
  /** `ID KIND PATH` per device it offers. */
  devices: { id: string; kind: string; path: string }[];
  pairingCode: string;
  pid: number;
  /** Resolves with all it printed on stderr once that matches `pattern` (counting from `after` characters). */
  stderrWhen(pattern: RegExp, after?: number): Promise<string>;
  /** What it printed on stderr so far. */
  stderr(): string;
  /** SIGTERM: a clean stop (it says offline itself). */
  stop(): Promise<void>;
  /** SIGKILL: the broker publishes its last will. */
  kill(): Promise<void>;
}

/**
 * Runs `home-agent bridge` as its own process (`args` after `bridge`, `env` added to this process's) and
 * resolves once it printed its devices and its pairing code.
 */
export function startBridgeProcess(options: { args: string[]; env?: NodeJS.ProcessEnv }): Promise<BridgeProcess> {
  const child = spawn(process.execPath, [...homeAgentCommand(), 'bridge', ...options.args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  const devices: BridgeProcess['devices'] = [];
  let stdout = '';
  const stderr = new PrintedText();
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.on('close', (code) => reject(new Error(`home-agent bridge exited (${code}) before it was ready: ${stderr}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n');
      for (const line of lines.slice(0, -1)) {
        const code = /^pairing code: (\S+)$/.exec(line)?.[1];
        if (code === undefined) continue;
        for (const deviceLine of lines.slice(0, lines.indexOf(line))) {
          const [id, kind, devicePath] = deviceLine.split(' ');
          if (id && kind && devicePath) devices.push({ id, kind, path: devicePath });
        }
        resolve({
          devices,
          pairingCode: code,
          pid: child.pid!,
          stderr: () => stderr.toString(),
          stderrWhen: (pattern, after) => stderr.when(pattern, after),
          stop: () => end('SIGTERM'),
          kill: () => end('SIGKILL'),
        });
        return;
      }
    });
  });
}
