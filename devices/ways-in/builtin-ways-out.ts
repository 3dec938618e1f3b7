import type { WayOut, WayOutNames } from '../registry/way-out.ts';
import { bridgeNames, bridgeWayOut } from '../mqtt/bridged/bridge-way-out.ts';
import { mqttBrokerOf } from '../mqtt/mqtt-settings.ts';

/**
 * The way out the host's settings configure (each value checked already by its settings row; a broker URL given): how `home-agent bridge` offers this
 * machine's devices; undefined when none is configured. Throws naming what is wrong in them.
 */
export function configuredWayOut(settings: Readonly<Record<string, unknown>>): WayOut | undefined {
  const broker = mqttBrokerOf(settings);
  return broker === undefined ? undefined : bridgeWayOut(broker);
}

/** How bridges are named and paired (`home-agent bridge --pairing-code` needs no connection). */
export function wayOutNames(): WayOutNames {
  return bridgeNames;
}
