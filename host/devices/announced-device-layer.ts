import type { DeviceLayer } from './device-layer.ts';
import { announceHost } from './host-announcement.ts';

/**
 * The device layer of a running host, announced while it runs (see announceHost): every device it
 * lists — attached, paired, left out — by id and port, rewritten as devices come and go, withdrawn
 * once the layer is disposed and its ports are closed. An announcement that cannot be written is
 * logged once and the host runs on: only `home-agent sim`'s choice of ids and a message naming a
 * port's holder depend on it.
 */
export async function announcedDeviceLayer(
  layer: DeviceLayer,
  options: { command: string; log: (line: string) => void; directory?: string },
): Promise<DeviceLayer> {
  const devices = (): { id: string; path: string }[] => layer.list().map(({ id, path }) => ({ id, path }));
  let reported = false;
  const report = (error: unknown): void => {
    if (!reported)
      options.log(
        `could not announce this host's devices for home-agent sim and other processes: ${(error as Error).message}`,
      );
    reported = true;
  };
  const announcement = await announceHost({
    command: options.command,
    devices: devices(),
    ...(options.directory !== undefined ? { directory: options.directory } : {}),
  }).catch((error: unknown) => {
    report(error);
    return undefined;
  });
  const stop = layer.onNotice?.((notice) => {
    if (notice.type === 'devices/changed') announcement?.update(devices()).catch(report);
  });
  return {
    ...layer,
    dispose: async () => {
      stop?.();
      await layer.dispose();
      await announcement?.close().catch(report);
    },
  };
}
