import type { WayOut, WayOutNames } from '../links/way-out.ts';
import { bridgeNames, bridgeWayOut } from '../mqtt/bridged/bridge-way-out.ts';
import { mqttBrokerOf } from '../mqtt/mqtt-settings.ts';

/** What help says of the ways out's settings on `home-agent bridge` (the flags come from the settings table). */
export const WAY_OUT_HELP = {
  /** The part of the usage line that names where the devices go. */
  usage: '--mqtt URL [--mqtt-password-env VAR]',
  /** The same with example values, and what they say. */
  example: {
    flags: '--mqtt mqtt://cellar@broker.local:1883 --mqtt-password-env BROKER_PASSWORD',
    text: 'through the broker broker.local as user cellar, the password from $BROKER_PASSWORD',
  },
  /** What a bridge needs when none is configured. */
  missing: 'a broker to publish on: --mqtt mqtt://USER@HOST:PORT (the password from --mqtt-password-env VAR)',
} as const;

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
