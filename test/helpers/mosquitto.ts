import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';
import { untilPrinted } from './until-printed.ts';

/** Debian's broker and its password tool (sbin is often not on PATH). */
export const MOSQUITTO = '/usr/sbin/mosquitto';
const MOSQUITTO_PASSWD = '/usr/bin/mosquitto_passwd';

/** Why the MQTT tests cannot run on this machine (naming the apt-get line), or undefined when they can. */
export function mosquittoMissing(): string | undefined {
  if (!existsSync(MOSQUITTO) || !existsSync(MOSQUITTO_PASSWD)) return 'mosquitto is missing: apt-get install mosquitto';
  return undefined;
}

/** One account on the test broker. */
export interface MosquittoUser {
  username: string;
  password: string;
}

/** The accounts every test broker has, unless a test gives its own: a host, a bridge, a device publisher, an intruder. */
export const TEST_USERS = {
  host: { username: 'host', password: 'host-secret' },
  bridge: { username: 'bridge', password: 'bridge-secret' },
  device: { username: 'device', password: 'device-secret' },
  intruder: { username: 'intruder', password: 'intruder-secret' },
} as const satisfies Record<string, MosquittoUser>;

/**
 * The ACL every test broker has unless a test gives its own (Mosquitto's `acl_file` syntax): each
 * known user may read and write everything except `intruder`, who may only read `public/#`.
 */
export const OPEN_ACL = [
  'user host',
  'topic readwrite #',
  '',
  'user bridge',
  'topic readwrite #',
  '',
  'user device',
  'topic readwrite #',
  '',
  'user intruder',
  'topic read public/#',
  '',
].join('\n');

/** A running broker of the test's own, on a loopback port; `stop()` ends it and removes its folder. */
export interface Mosquitto {
  readonly host: string;
  readonly port: number;
  readonly users: readonly MosquittoUser[];
  /** `mqtt://USER@127.0.0.1:PORT` (the password never goes in a URL). */
  url(username: string): string;
  /** Everything the broker wrote to stderr so far (its log). */
  readonly log: string[];
  /** Stops the broker (it drops every client, sending their wills) and starts it again on the same port. */
  restart(): Promise<void>;
  /** Ends the broker; a later `start()` brings it back on the same port. */
  stopBroker(): Promise<void>;
  /** Starts the broker again after `stopBroker()` or `kill()`. */
  start(): Promise<void>;
  /** Stops the broker's process (SIGSTOP): connections stay open, nothing is read or answered. */
  freeze(): void;
  /** Kills the broker at once (SIGKILL, frozen or not): whatever it had not answered is never answered. */
  kill(): Promise<void>;
  /** Ends the broker and removes its files. */
  stop(): Promise<void>;
}

/**
 * Starts `/usr/sbin/mosquitto` on a free loopback port with a password file of `users`, the `acl`
 * given (Mosquitto's syntax) and no persistence, so no retained message outlives a restart unless it
 * is sent again. Run as root, the broker drops to user `mosquitto` before it reads its files, so they
 * are handed to that user in a folder it can traverse. Resolves once the broker listens.
 */
export async function startMosquitto(
  options: { users?: readonly MosquittoUser[]; acl?: string; extraConfig?: string[] } = {},
): Promise<Mosquitto> {
  const users = options.users ?? Object.values(TEST_USERS);
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-mosquitto-'));
  chmodSync(folder, 0o755);
  const passwordFile = path.join(folder, 'passwords');
  const aclFile = path.join(folder, 'acl');
  const configFile = path.join(folder, 'mosquitto.conf');
  writeFileSync(passwordFile, users.map((user) => `${user.username}:${user.password}\n`).join(''), { mode: 0o600 });
  const hashed = spawnSync(MOSQUITTO_PASSWD, ['-U', passwordFile], { encoding: 'utf8' });
  if (hashed.status !== 0) throw new Error(`mosquitto_passwd -U failed: ${hashed.stderr}`);
  writeFileSync(aclFile, options.acl ?? OPEN_ACL, { mode: 0o600 });
  const port = await freePort();
  writeFileSync(
    configFile,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `password_file ${passwordFile}`,
      `acl_file ${aclFile}`,
      'persistence false',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      'log_type notice',
      'log_type information',
      ...(options.extraConfig ?? []),
      '',
    ].join('\n'),
  );
  if (process.getuid?.() === 0) {
    const uid = Number(spawnSync('id', ['-u', 'mosquitto'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'mosquitto'], { encoding: 'utf8' }).stdout.trim());
    for (const file of [passwordFile, aclFile, configFile]) chownSync(file, uid, gid);
  }

  const log: string[] = [];
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const started = spawn(MOSQUITTO, ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    // The last line Mosquitto writes once its listeners are open.
    await untilPrinted({
      child: started,
      stream: started.stderr!,
      ready: /mosquitto version \S+ running/,
      name: 'mosquitto',
      onLine: (line) => log.push(line),
    });
  };

  const end = async (signal: 'SIGTERM' | 'SIGKILL'): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill(signal);
      // A frozen broker handles SIGTERM only once it runs again.
      if (signal === 'SIGTERM') running.kill('SIGCONT');
    });
  };
  const stopBroker = (): Promise<void> => end('SIGTERM');

  try {
    await start();
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    users,
    url: (username) => `mqtt://${username}@127.0.0.1:${port}`,
    log,
    start,
    stopBroker,
    freeze: () => void child?.kill('SIGSTOP'),
    kill: () => end('SIGKILL'),
    restart: async () => {
      await stopBroker();
      await start();
    },
    stop: async () => {
      await stopBroker();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
