import type { DeviceSummary, HostNotice } from '../../host/contract/api-contract.ts';
import { RECENT_DEVICE_EVENTS } from '../../host/contract/device-contract.ts';

type DeviceEventNotice = Extract<HostNotice, { type: 'device/event' }>;

/**
 * Pure: the devices after one of them announced something (a button, a door): the event joins the
 * end of its recent events, the oldest dropping out past ten. Devices it is not about stay as they are.
 */
export function addDeviceEvent(devices: DeviceSummary[], notice: DeviceEventNotice, at: number): DeviceSummary[] {
  if (!devices.some((device) => device.id === notice.deviceId)) return devices;
  return devices.map((device) =>
    device.id === notice.deviceId && device.status !== 'left-out'
      ? {
          ...device,
          recentEvents: [...(device.recentEvents ?? []), { event: notice.event, data: notice.data, at }].slice(
            -RECENT_DEVICE_EVENTS,
          ),
        }
      : device,
  );
}

/** Pure: the devices with one device's grants replaced by what the host answered. */
export function withGranted(devices: DeviceSummary[], deviceId: string, granted: string[]): DeviceSummary[] {
  return devices.map((device) =>
    device.id === deviceId && device.source === 'paired' && device.status !== 'left-out'
      ? { ...device, granted }
      : device,
  );
}
