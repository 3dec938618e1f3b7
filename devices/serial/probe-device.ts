import type { HelloResult } from '../protocol/frame-schema.ts';
import { DeviceSession } from '../session/device-session.ts';
import type { TransportConnector } from '../transport/line-transport.ts';

/** Opens a port just long enough to get the device's hello, then closes it. Rejects `device_offline` on timeout. */
export async function probeDevice(options: {
  connector: TransportConnector;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<HelloResult> {
  const session = new DeviceSession({
    connector: options.connector,
    helloTimeoutMs: Math.min(options.timeoutMs ?? 3000, 2000),
  });
  session.start();
  try {
    return await session.whenOnline({ timeoutMs: options.timeoutMs ?? 3000, signal: options.signal });
  } finally {
    await session.dispose();
  }
}
