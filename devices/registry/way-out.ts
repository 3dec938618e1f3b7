import type { DeviceRegistry } from './device-registry.ts';

/**
 * A way this machine's devices are offered to a host elsewhere (`home-agent bridge`): the host's
 * bridge command sees only this, as it sees ways in only through `WayIn`. Its settings are given
 * where the list of ways out is made.
 */
export interface WayOut extends WayOutNames {
  /** For messages: what the devices are offered through (`the broker at HOST:PORT`). */
  readonly label: string;
  /** Offers `registry`'s devices as bridge `name` until closed; rejects when it cannot reach its peer in time. */
  open(options: OpenWayOutOptions): Promise<OpenWayOut>;
}

/** What names a bridge and pairs it, needing no connection (`home-agent bridge --pairing-code`). */
export interface WayOutNames {
  /** Why `name` cannot name this machine's bridge, or undefined when it can. */
  nameProblem(name: string): string | undefined;
  /** A name for the bridge made from the machine's host name. */
  defaultName(hostName: string): string;
  /** Makes a new one-time pairing code for bridge `name` (the one before stops working); kept in `stateFolder` as only what checks it. */
  newPairingCode(options: { stateFolder: string; name: string }): string;
}

/** How a way out is opened. */
export interface OpenWayOutOptions {
  registry: DeviceRegistry;
  name: string;
  stateFolder: string;
  log: (line: string) => void;
  signal: AbortSignal;
  /** How long to wait for the first connection (default 10000 ms). */
  connectTimeoutMs?: number;
}

/** A way out that is offering devices. */
export interface OpenWayOut {
  /** The devices offered: the id a host knows each by, its kind, the path a host pairs. */
  devices(): { id: string; kind: string; path: string }[];
  /** Stops offering (says goodbye) and lets go of the connection; the registry stays the caller's. */
  close(): Promise<void>;
}
