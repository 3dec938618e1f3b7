import type { WayIn } from '../links/way-in.ts';
import { modbusWayIn } from '../modbus/modbus-way-in.ts';
import type { ModbusTimings } from '../modbus/modbus-buses.ts';
import { serialWayIn } from '../session/serial-way-in.ts';
import type { TransportConnector } from '../transport/line-transport.ts';

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
  } = {},
): WayIn[] {
  return [modbusWayIn(options.modbus), serialWayIn(options.connectorFor ? { connectorFor: options.connectorFor } : {})];
}
