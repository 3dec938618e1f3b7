import type { DeviceRegistry } from '../../devices/registry/device-registry.ts';

/** What a device announced on its own (a button, a door), with when it arrived. */
export interface RecentDeviceEvent {
  event: string;
  data: Record<string, unknown>;
  at: number;
}

/** The last connection trouble of a device, with when it happened. */
export interface LastDeviceError {
  message: string;
  at: number;
}

const RECENT_EVENTS = 10;

/**
 * What the Devices tab shows beside a device's status: its last connection error and its recent
 * events, kept in memory per device id (since the host started). Owns its registry subscriptions.
 */
export class DeviceActivity {
  private readonly errors = new Map<string, LastDeviceError>();
  private readonly events = new Map<string, RecentDeviceEvent[]>();
  private readonly unsubscribe: (() => void)[];

  constructor(registry: DeviceRegistry, now: () => number = Date.now) {
    this.unsubscribe = [
      registry.onProblem((problem) => {
        if (problem.problem === 'connection') this.errors.set(problem.deviceId, { message: problem.detail, at: now() });
      }),
      registry.onEvent((event) => {
        const data = isRecord(event.data) ? event.data : {};
        const list = [...(this.events.get(event.deviceId) ?? []), { event: event.event, data, at: now() }];
        this.events.set(event.deviceId, list.slice(-RECENT_EVENTS));
      }),
    ];
  }

  lastError(deviceId: string): LastDeviceError | undefined {
    return this.errors.get(deviceId);
  }

  /** The device's latest events, oldest first (at most ten). */
  recentEvents(deviceId: string): RecentDeviceEvent[] {
    return this.events.get(deviceId) ?? [];
  }

  dispose(): void {
    for (const stop of this.unsubscribe) stop();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
