// Data only: `bridge --help` reads it without loading a way out (a broker client).

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
