import type { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { isRecord } from '../../core/text/is-record.ts';
import { RECENT_DEVICE_EVENTS } from '../contract/device-contract.ts';

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

/**
 * What the Devices tab shows beside a device's status: its last connection error (a failed open or
 * hello, or the port going away under an online device) and its recent events, kept in memory per
 * device id since the host started. `onChange` hears of a new error message (not of the same one
 * repeated by every reconnect attempt). Owns its registry subscriptions.
 */
export class DeviceActivity {
  private readonly errors = new Map<string, LastDeviceError>();
  private readonly events = new Map<string, RecentDeviceEvent[]>();
  private readonly statuses = new Map<string, string>();
  private readonly unsubscribe: (() => void)[];

  constructor(registry: DeviceRegistry, options: { now?: () => number; onChange?: () => void } = {}) {
    const now = options.now ?? Date.now;
    const record = (deviceId: string, message: string): void => {
      const known = this.errors.get(deviceId);
      this.errors.set(deviceId, { message, at: now() });
      if (known?.message !== message) options.onChange?.();
    };
    this.unsubscribe = [
      registry.onProblem((problem) => {
        // What keeps a device from being used: its port, a hello it was refused for, an event flood.
        if (
          problem.problem === 'connection' ||
          problem.problem === 'hello_refused' ||
          problem.problem === 'event_flood'
        )
          record(problem.deviceId, problem.detail);
      }),
      // A session that loses its port says so only in its status: that is the error a person needs.
      registry.onChange(() => {
        for (const device of registry.list()) {
          const before = this.statuses.get(device.id);
          this.statuses.set(device.id, device.status);
          if (before === 'online' && device.status === 'offline')
            record(device.id, `lost ${device.path}: the port closed or went away`);
        }
      }),
      registry.onEvent((event) => {
        const data = isRecord(event.data) ? event.data : {};
        const list = [...(this.events.get(event.deviceId) ?? []), { event: event.event, data, at: now() }];
        this.events.set(event.deviceId, list.slice(-RECENT_DEVICE_EVENTS));
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
