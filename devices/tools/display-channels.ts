import type { OutputChannel } from '../../core/plugins/output-channel.ts';
import type { DeviceRegistry } from '../registry/device-registry.ts';
import { authorisedDevices, authorizeDeviceCall } from './authorize-device-call.ts';
import { safeText } from '../../core/text/safe-text.ts';

/**
 * Every authorised text display as an output channel (`display-1` → `display_1`); the channels
 * plugin turns each into `output_send__display_1`. A send re-checks the grant, so never fails open.
 */
export function displayChannels(registry: DeviceRegistry): OutputChannel[] {
  return authorisedDevices(registry, { kind: 'display', action: 'show' }).map((device) => {
    const deviceId = device.trustedIdentity.id;
    return {
      name: deviceId.toLowerCase().replace(/[^a-z0-9_]/g, '_'),
      description: `Text display ${deviceId}${device.alias && device.alias !== deviceId ? ` ("${safeText(device.alias)}")` : ''}, at most 64 characters.`,
      async send(text, context) {
        const decision = authorizeDeviceCall(registry, {
          kind: 'display',
          action: 'show',
          args: { device_id: deviceId },
        });
        if (!decision.ok) throw decision.error;
        return registry.call(deviceId, 'show', { text }, { signal: context.signal });
      },
    };
  });
}
