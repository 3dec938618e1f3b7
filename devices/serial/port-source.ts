/**
 * How a scan found a port: `os` the system's serial port list (udev), `dev` a `/dev/tty*` name,
 * `sim` a running `home-agent sim`, `path` given by the person.
 */
export const PORT_SOURCES = ['os', 'dev', 'sim', 'path'] as const;
export type PortSource = (typeof PORT_SOURCES)[number];

/** What each source means, for people reading `devices scan` or the Add device list. */
export const PORT_SOURCE_MEANINGS: Readonly<Record<PortSource, string>> = {
  os: "in the system's serial port list",
  dev: 'a serial device name in /dev',
  sim: 'a port of a running home-agent sim',
  path: 'the path you gave',
};
