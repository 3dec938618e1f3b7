import type { TransportConnector } from '../transport/line-transport.ts';
import type { ToolNameOwner } from '../protocol/check-hello.ts';

/** `connecting` before the first hello, `offline` after losing the port, `closed` once disposed. */
export type SessionStatus = 'connecting' | 'online' | 'offline' | 'closed';

/**
 * A frame the session could not use (counted in `stats`), a failed connection attempt, a hello the
 * host refused (its reason in `detail`), or — from the registry — events dropped past the device's
 * rate; reported to `onProblem`.
 */
export interface FrameProblem {
  problem:
    | 'oversized'
    | 'invalid_json'
    | 'invalid_frame'
    | 'unmatched_response'
    | 'connection'
    | 'hello_refused'
    | 'event_flood';
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

/** What every link of one registry shares, whatever its way in: its timings and who owns tool names. */
export interface LinkDefaults {
  /** Per-call timeout once the request is on the wire (default 5000 ms). */
  callTimeoutMs?: number;
  /** How long one hello waits for its answer before it is asked again on the same port (default 2000 ms). */
  helloTimeoutMs?: number;
  /** Pause between failed connection attempts (default 100 ms). */
  reconnectIntervalMs?: number;
  /** Who owns a tool name other than this device (default: the built-in plugins); such a hello is refused. */
  toolNameOwner?: ToolNameOwner;
}

/** Options of a device session: the link defaults and the transport it runs on. */
export interface DeviceSessionOptions extends LinkDefaults {
  connector: TransportConnector;
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Called when the request is handed to the port: from then on, the device may act on it. */
  onSent?: () => void;
}
