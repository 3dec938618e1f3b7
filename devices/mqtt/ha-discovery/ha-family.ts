import type { MqttListenerVerdict, MqttMessage } from '../mqtt-broker.ts';
import type { MqttDeviceFamilyFactory } from '../mqtt-device-family.ts';
import { ConventionFamily } from '../conventions/convention-family.ts';
import { haDevice } from './ha-device.ts';
import { HA_DISCOVERY_FILTERS, haDiscoveryPlace } from './ha-discovery-topic.ts';

/**
 * Devices announced by Home Assistant MQTT discovery (`ha:NODE/OBJECT`): each retained config
 * `homeassistant/COMPONENT/[NODE/]OBJECT/config` is one device, a new config replaces it, and an
 * empty one removes it. The same `NODE/OBJECT` under two components would share a path: neither is
 * offered (the catalogue says why).
 */
export class HaFamily extends ConventionFamily {
  readonly source = 'ha' as const;

  discoveryTopics(): string[] {
    return [...HA_DISCOVERY_FILTERS];
  }

  receive(message: MqttMessage): MqttListenerVerdict {
    const place = haDiscoveryPlace(message.topic);
    if (place === undefined) return undefined;
    const key = `${place.component}/${place.name}`;
    const reading = haDevice(place, message.payload);
    if (reading.ok) this.catalogue.set(key, reading);
    else if (reading.removed) this.catalogue.delete(key);
    else this.catalogue.set(key, { ok: false, name: `ha:${place.name} (${place.component})`, why: reading.why });
    return undefined;
  }
}

/** Makes the discovery family of one MQTT way in. */
export const haFamily: MqttDeviceFamilyFactory = (context) => new HaFamily(context);
