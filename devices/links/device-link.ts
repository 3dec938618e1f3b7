import type { EventFrame, HelloResult } from '../protocol/frame-schema.ts';
import type { DeviceGrant } from './device-grant.ts';
import type { LinkWiring } from './link-wiring.ts';
import type { CallOptions, FrameProblem, SessionStats, SessionStatus } from './session-types.ts';

/**
 * How the registry reaches one device, whatever its way in (`WayIn`) opened it: a session on a port
 * of its own, a unit on a shared bus, later a remote device behind a bridge. Grants, pairing,
 * approvals and device tools see only this.
 */
export interface DeviceLink {
  /** For messages: the port, or the port and unit. */
  readonly label: string;
  readonly status: SessionStatus;
  /** What the device is and offers (its hello, or what its profile declares), kept while offline. */
  readonly hello: HelloResult | undefined;
  /**
   * Optional: where its actions' commands go and what they send, as its way in reads it now (see
   * LinkWiring), for a device whose way in says it; pinned and held to like its tools. Absent for a
   * device that says everything in its hello.
   */
  readonly wiring?: LinkWiring | undefined;
  /** Frames dropped and connections made; a reply that fails its checksum counts as an invalid frame. */
  readonly stats: SessionStats;
  /** Starts connecting, and reconnecting for the link's whole life. */
  start(): void;
  /** Resolves with the hello once online; rejects `device_offline` on timeout, abort or dispose. */
  whenOnline(options: { timeoutMs: number; signal?: AbortSignal }): Promise<HelloResult>;
  /** Runs one action; rejects with a ToolError. */
  call(tool: string, args: Record<string, unknown>, options?: CallOptions): Promise<unknown>;
  onStatus(listener: (status: SessionStatus) => void): () => void;
  onEvent(listener: (event: EventFrame) => void): () => void;
  onProblem(listener: (problem: FrameProblem) => void): () => void;
  /**
   * Optional: told what the person granted on this device, when it is attached and at each change,
   * for a link whose far end enforces grants too (a bridge refuses what its host has not granted).
   */
  grantChanged?(grant: DeviceGrant): void;
  /** Stops reconnecting, fails what is pending, lets go of the port. */
  dispose(): Promise<void>;
}

/** Where a link reaches its device. */
export interface LinkPlacement {
  /** The port path a person sees and pairs (several units of one bus may share one). */
  path: string;
  /** Unique among attached devices: the path, or the path and unit (`/dev/ttyUSB0#3`). */
  address: string;
  /**
   * The physical lane shared with other devices, when it is shared (a bus: `bus:/dev/ttyUSB0`): devices
   * whose placements name the same lane may share a path; any other second device on a path is refused.
   */
  sharedLane?: string;
  /** For messages: what the shared lane is (`a bus`). */
  laneName?: string;
}

/** The placement of a device that has its port to itself. */
export function ownPortPlacement(path: string): LinkPlacement {
  return { path, address: path };
}

/** Why `placement` cannot join devices already at `taken`, or undefined when it can. */
export function placementConflict(placement: LinkPlacement, taken: readonly LinkPlacement[]): string | undefined {
  const sameAddress = taken.find((other) => other.address === placement.address);
  if (sameAddress) return `${placement.address} is already attached`;
  const samePath = taken.find((other) => other.path === placement.path);
  if (samePath === undefined) return undefined;
  if (placement.sharedLane !== undefined && samePath.sharedLane === placement.sharedLane) return undefined;
  return samePath.sharedLane === undefined
    ? `${placement.path} is already attached (one device per port unless they share one lane, as the units of a bus do)`
    : `${placement.path} is ${samePath.laneName ?? 'a shared lane'} already: only further devices of that lane can join it`;
}
