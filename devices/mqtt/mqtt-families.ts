import { haFamily } from './ha-discovery/ha-family.ts';
import type { MqttDeviceFamilyFactory } from './mqtt-device-family.ts';
import { tasmotaFamily } from './tasmota/tasmota-family.ts';
import { z2mFamily } from './zigbee2mqtt/z2m-family.ts';
import { bridgedFamily } from './bridged/bridged-family.ts';

/**
 * Every MQTT device family Home Agent knows, in the order the scan lists them. A new convention is
 * one folder under devices/mqtt/ and one line here.
 */
export const mqttFamilies: readonly MqttDeviceFamilyFactory[] = [bridgedFamily, z2mFamily, tasmotaFamily, haFamily];
