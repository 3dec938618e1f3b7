import type { MqttListenerVerdict, MqttMessage } from '../mqtt-broker.ts';
import type { MqttDeviceFamilyFactory } from '../mqtt-device-family.ts';
import type { ConventionReading } from '../conventions/convention-catalogue.ts';
import { ConventionFamily } from '../conventions/convention-family.ts';
import { payloadJson } from '../conventions/payload-text.ts';
import { readBridgeDevices } from './z2m-bridge-devices.ts';
import { z2mAvailability, z2mDevice, Z2M_BRIDGE_STATE_TOPIC, Z2M_DEVICES_TOPIC } from './z2m-device.ts';

/**
 * Zigbee2MQTT's devices (`z2m:NAME`): its retained device list `zigbee2mqtt/bridge/devices` says
 * what there is — each new list replaces the last, so a device that left is forgotten — and
 * `zigbee2mqtt/bridge/state` whether the bridge runs: while it is offline, so are its devices.
 */
export class Z2mFamily extends ConventionFamily {
  readonly source = 'z2m' as const;
  private bridgeOnline = true;

  discoveryTopics(): string[] {
    return [Z2M_DEVICES_TOPIC, Z2M_BRIDGE_STATE_TOPIC];
  }

  receive(message: MqttMessage): MqttListenerVerdict {
    if (message.topic === Z2M_BRIDGE_STATE_TOPIC) {
      const online = z2mAvailability(message.payload);
      if (online === undefined) return { malformed: `${message.topic}: neither online nor offline` };
      this.bridgeOnline = online;
      for (const { device } of this.catalogue.offered()) this.catalogue.setOnline(device.path, online);
      return undefined;
    }
    if (message.topic !== Z2M_DEVICES_TOPIC) return undefined;
    if (message.payload.length === 0) {
      this.catalogue.replaceAll(new Map());
      return undefined;
    }
    const list = payloadJson(message.payload);
    if (list === undefined) return { malformed: `${message.topic}: not JSON` };
    const { devices, skipped } = readBridgeDevices(list);
    const readings = new Map<string, ConventionReading>();
    for (const entry of devices) {
      const reading = z2mDevice(entry);
      readings.set(
        `z2m:${entry.friendly_name}`,
        // A refused device goes by the path it would have had, as the other families' do.
        reading.ok ? reading : { ok: false, name: `z2m:${reading.name}`, why: reading.why },
      );
    }
    this.catalogue.replaceAll(readings, this.bridgeOnline);
    return skipped.length > 0 && devices.length === 0 ? { malformed: `${message.topic}: ${skipped[0]}` } : undefined;
  }
}

/** Makes the Zigbee2MQTT family of one MQTT way in. */
export const z2mFamily: MqttDeviceFamilyFactory = (context) => new Z2mFamily(context);
