import type { TransportConnector } from '../transport/line-transport.ts';

/** `connecting` before the first hello, `offline` after losing the port, `closed` once disposed. */
export type SessionStatus = 'connecting' | 'online' | 'offline' | 'closed';

/** A frame the session could not use (counted in `stats`) or a failed connection attempt; reported to `onProblem`. */
export interface FrameProblem {
  problem: 'oversized' | 'invalid_json' | 'invalid_frame' | 'unmatched_response' | 'connection';
  detail: string;
}

/** Counters of frames the session dropped. */
export interface SessionStats {
  oversized: number;
  invalidJson: number;
  invalidFrame: number;
  unmatchedResponse: number;
  connects: number;
}

/** Options of a device session. */
export interface DeviceSessionOptions {
  connector: TransportConnector;
  /** Per-call timeout once the request is on the wire (default 5000 ms). */
  callTimeoutMs?: number;
  /** How long one hello waits for its answer before it is asked again on the same port (default 2000 ms). */
  helloTimeoutMs?: number;
  /** Pause between failed connection attempts (default 100 ms). */
  reconnectIntervalMs?: number;
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Called when the request is handed to the port: from then on, the device may act on it. */
  onSent?: () => void;
}
