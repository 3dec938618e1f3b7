import type { WayIn } from '../links/way-in.ts';
import { modbusWayIn } from '../modbus/modbus-way-in.ts';
import type { ModbusTimings } from '../modbus/modbus-buses.ts';
import { mqttFamilies } from '../mqtt/mqtt-families.ts';
import type { MqttDeviceFamilyFactory } from '../mqtt/mqtt-device-family.ts';
import { mqttBrokerOf } from '../mqtt/mqtt-settings.ts';
import { mqttWayIn, type MqttWayInBroker } from '../mqtt/mqtt-way-in.ts';
import { serialWayIn } from '../serial/serial-way-in.ts';
import { lineProfileOf } from './builtin-profile-formats.ts';
import type { TransportConnector } from '../transport/line-transport.ts';

/** What the host's settings say of the broker way in (`mqttUrl`, `mqttPasswordEnv`, `mqttTopicPrefix`, `mqttMaxMessageBytes`). */
export type BrokerSettings = MqttWayInBroker;

/**
 * Every way in Home Agent knows, in the order they are asked to claim a device (the first that
 * claims it wins; serial, the default, comes last so any other takes what is its). A new way in is
 * one folder and one entry here.
 */
export function builtinWaysIn(
  options: {
    /** Shorter Modbus waits (tests). */
    modbus?: ModbusTimings;
    /** Replaces the serial port of the serial way in (tests). */
    connectorFor?: (path: string) => TransportConnector;
    /**
     * The host's settings: each way in reads its own (builtin-way-in-settings.ts), defaults filled in
     * from their rows. Without a broker URL there is no broker (its paired devices stay offline, saying so).
     */
    settings?: Readonly<Record<string, unknown>>;
    /** The ways in's secrets the front end keeps (the desktop app's keychain), by their declared name; absent: none. */
    secret?: (name: string) => string | undefined;
    /** The broker devices are reached through, instead of the one `settings` name (tests). */
    broker?: BrokerSettings | undefined;
    /** Replaces the broker's device families (tests). */
    brokerFamilies?: readonly MqttDeviceFamilyFactory[];
    /** Shorter broker waits (tests). */
    brokerTimings?: { connectTimeoutMs?: number; reconnectIntervalMs?: number };
    /** Where a broker password variable is read (default: the process's environment). */
    env?: Readonly<Record<string, string | undefined>>;
  } = {},
): WayIn[] {
  return [
    modbusWayIn(options.modbus),
    mqttWayIn({
      broker: options.broker ?? mqttBrokerOf(options.settings ?? {}),
      families: options.brokerFamilies ?? mqttFamilies,
      ...(options.brokerTimings ? { timings: options.brokerTimings } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.secret ? { secret: options.secret } : {}),
    }),
    serialWayIn({ lineProfileOf, ...(options.connectorFor ? { connectorFor: options.connectorFor } : {}) }),
  ];
}
