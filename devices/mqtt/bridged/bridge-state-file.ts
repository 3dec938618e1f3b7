import { randomBytes } from 'node:crypto';
import { constants, closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { z } from 'zod';
import type { DeviceGrant } from '../../links/device-grant.ts';
import { readWire } from './bridge-wire.ts';
import { hostIdSchema } from './bridge-topics.ts';
import { codeKeyOf, newPairingCode } from './pairing-exchange.ts';

const keySchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, '32 bytes, base64url');
const grantSchema = z.union([z.literal('all'), z.array(z.string().max(64)).max(64)]);

const stateSchema = z.object({
  v: z.literal(1),
  /** The key of the pairing code now valid (the code itself is never kept); null once used. */
  codeKey: keySchema.nullable(),
  /** Every paired host and its key. */
  hosts: z.record(hostIdSchema, z.object({ key: keySchema, pairedAt: z.number().int() })),
  /** What each host granted on each device, and the time of the grant message that said so. */
  grants: z.record(hostIdSchema, z.record(z.string(), z.object({ grant: grantSchema, ts: z.number().int() }))),
});
type State = z.infer<typeof stateSchema>;

/** The most a state file is read: far more than any number of hosts and grants a home has. */
const MAX_STATE_BYTES = 4 * 1024 * 1024;

/** The state file is not what the bridge wrote: named with what to do, never overwritten. */
export class BridgeStateError extends Error {
  override readonly name = 'BridgeStateError';
}

/**
 * What a bridge keeps in its data folder (`bridge-NAME.json`, mode 0600): the key of its pending
 * one-time pairing code, its paired hosts' keys, and their grants. Every change is written at once
 * (to a new file, then renamed over the old), and re-read before each pairing so a code made by
 * `bridge --pairing-code` in another process is seen.
 */
export class BridgeStateFile {
  private state: State;

  private constructor(
    readonly file: string,
    state: State,
  ) {
    this.state = state;
  }

  /** Opens the file, or starts an empty state when there is none (written at the first change). */
  static open(file: string): BridgeStateFile {
    return new BridgeStateFile(file, readState(file) ?? { v: 1, codeKey: null, hosts: {}, grants: {} });
  }

  /** Makes a new one-time pairing code (the one before stops working) and returns it; only its key is kept. */
  newPairingCode(): string {
    this.reload();
    const code = newPairingCode();
    this.state.codeKey = codeKeyOf(code).toString('base64url');
    this.save();
    return code;
  }

  /** The key of the pending pairing code (as the file says now), or undefined when none is pending. */
  pendingCodeKey(): Buffer | undefined {
    this.reload();
    return this.state.codeKey === null ? undefined : Buffer.from(this.state.codeKey, 'base64url');
  }

  /** Keeps a newly paired host's key and uses the code up: the next pairing needs a new one. */
  addHost(host: string, key: Buffer, now: number): void {
    this.reload();
    this.state.codeKey = null;
    this.state.hosts[host] = { key: key.toString('base64url'), pairedAt: now };
    this.save();
  }

  keyOf(host: string): Buffer | undefined {
    const entry = this.state.hosts[host];
    return entry === undefined ? undefined : Buffer.from(entry.key, 'base64url');
  }

  /** Every paired host. */
  hosts(): string[] {
    return Object.keys(this.state.hosts);
  }

  grantOf(host: string, device: string): DeviceGrant | undefined {
    return this.state.grants[host]?.[device]?.grant;
  }

  /** Keeps what a host granted on a device when the message is newer than the last one kept; false when it is not. */
  setGrant(options: { host: string; device: string; grant: DeviceGrant; ts: number }): boolean {
    const held = this.state.grants[options.host]?.[options.device];
    if (held !== undefined && held.ts >= options.ts) return false;
    this.state.grants[options.host] = {
      ...this.state.grants[options.host],
      [options.device]: { grant: options.grant === 'all' ? 'all' : [...options.grant], ts: options.ts },
    };
    this.save();
    return true;
  }

  private reload(): void {
    const read = readState(this.file);
    if (read !== undefined) this.state = read;
  }

  private save(): void {
    const temporary = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    const descriptor = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      writeSync(descriptor, `${JSON.stringify(this.state, null, 2)}\n`);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, this.file);
  }
}

function readState(file: string): State | undefined {
  let text: string;
  try {
    const descriptor = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      text = readFileSync(descriptor, 'utf8');
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new BridgeStateError(`cannot read the bridge's state ${file}: ${(error as Error).message}`);
  }
  const read = readWire(stateSchema, text, MAX_STATE_BYTES);
  if (!read.ok)
    throw new BridgeStateError(
      `${file} is not a bridge state (${read.detail}): move it away to start afresh (hosts then pair again with a new code)`,
    );
  return read.value;
}
