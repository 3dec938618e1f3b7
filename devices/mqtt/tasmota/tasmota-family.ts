import type { MqttListenerVerdict, MqttMessage } from '../mqtt-broker.ts';
import type { MqttDeviceFamilyFactory } from '../mqtt-device-family.ts';
import { ConventionFamily } from '../conventions/convention-family.ts';
import { TASMOTA_LWT_FILTER, tasmotaDevice, tasmotaLwt, tasmotaTopicOf } from './tasmota-device.ts';

/**
 * Tasmota's devices (`tasmota:TOPIC`), found by their retained LWT `tele/TOPIC/LWT`: `Online` or
 * `Offline` (the will the broker publishes when the device drops) says whether it is reachable, and
 * an empty retained LWT (cleared) forgets it.
 */
export class TasmotaFamily extends ConventionFamily {
  readonly source = 'tasmota' as const;

  discoveryTopics(): string[] {
    return [TASMOTA_LWT_FILTER];
  }

  receive(message: MqttMessage): MqttListenerVerdict {
    const topic = tasmotaTopicOf(message.topic);
    if (topic === undefined) return undefined;
    const path = `tasmota:${topic}`;
    if (message.payload.length === 0) {
      this.catalogue.delete(path);
      return undefined;
    }
    const online = tasmotaLwt(message.payload);
    if (online === undefined) return { malformed: `${message.topic}: neither Online nor Offline` };
    if (this.catalogue.device(path)) this.catalogue.setOnline(path, online);
    else {
      const found = tasmotaDevice(topic);
      this.catalogue.set(path, found.ok ? found : { ok: false, name: path, why: found.why }, online);
    }
    return undefined;
  }
}

/** Makes the Tasmota family of one MQTT way in. */
export const tasmotaFamily: MqttDeviceFamilyFactory = (context) => new TasmotaFamily(context);
