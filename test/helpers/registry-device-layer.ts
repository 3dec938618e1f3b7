import type { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import type { DeviceLayer } from '../../host/devices/device-layer.ts';

/** A host's device layer that is just `registry`'s tools (no display channels, no listing); disposing it disposes the registry. */
export function registryDeviceLayer(registry: DeviceRegistry): DeviceLayer {
  return {
    plugin: createDevicesPlugin(registry),
    displayChannels: () => [],
    list: () => [],
    dispose: () => registry.dispose(),
  };
}
