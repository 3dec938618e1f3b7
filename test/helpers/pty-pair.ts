import type { FirmwareLogEntry, SimulatedFirmware } from '../../devices/simulator/simulated-firmware.ts';
import { DeviceSession } from '../../devices/session/device-session.ts';
import type { DeviceSessionOptions, SessionStatus } from '../../devices/session/device-session.ts';
import { serialConnector } from '../../devices/transport/serial-line-transport.ts';
import type { DeviceLink } from '../../devices/links/device-link.ts';

/** Resolves when `session` (any device link) reaches `status` (at once if it already has); event-driven, no polling. */
export function waitForStatus(session: Pick<DeviceLink, 'status' | 'onStatus'>, status: SessionStatus): Promise<void> {
  if (session.status === status) return Promise.resolve();
  return new Promise((resolve) => {
    const remove = session.onStatus((current) => {
      if (current !== status) return;
      remove();
      resolve();
    });
  });
}

/** Opens a started session on a serial path with short test timeouts; the caller disposes it. */
export function openTestSession(
  path: string,
  options: Partial<Omit<DeviceSessionOptions, 'connector'>> = {},
): DeviceSession {
  const session = new DeviceSession({
    connector: serialConnector({ path, pollIntervalMs: 20 }),
    helloTimeoutMs: 1000,
    reconnectIntervalMs: 20,
    callTimeoutMs: 3000,
    ...options,
  });
  session.start();
  return session;
}

/** Collects disposers and runs them in reverse order (for afterEach). */
export class Disposables {
  private readonly items: (() => Promise<unknown> | unknown)[] = [];

  add<T extends { close?(): Promise<unknown>; dispose?(): Promise<unknown> }>(item: T): T {
    this.items.push(() => (item.dispose ? item.dispose() : item.close?.()));
    return item;
  }

  async disposeAll(): Promise<void> {
    for (const dispose of this.items.splice(0).reverse()) await dispose();
  }
}

/** Resolves with the first firmware log entry that matches (already logged ones count). */
export function waitForLog(
  firmware: SimulatedFirmware,
  match: (entry: FirmwareLogEntry) => boolean,
): Promise<FirmwareLogEntry> {
  const found = firmware.log.find(match);
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    const remove = firmware.onLog((entry) => {
      if (!match(entry)) return;
      remove();
      resolve(entry);
    });
  });
}
