import type { MqttDeviceFamilyFactory } from './mqtt-device-family.ts';
import { bridgedFamily } from './bridged/bridged-family.ts';

/**
 * Every MQTT device family Home Agent knows, in the order the scan lists them. A new convention is
 * one folder under devices/mqtt/ and one line here.
 */
export const mqttFamilies: readonly MqttDeviceFamilyFactory[] = [bridgedFamily];
