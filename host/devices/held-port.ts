import { listAnnouncedHosts, type HostAnnouncement } from './host-announcement.ts';

/** What the serial binding says when another process holds a port's lock (serialport's `lock: true`). */
const HELD = /Cannot lock port/;

/** Whether an error's text says its port is held by another process. */
export function saysPortIsHeld(text: string): boolean {
  return HELD.test(text);
}

/**
 * Pure: what to tell a person whose device could not be opened because another process holds its
 * port — the Home Agent process that announced it (pid, how it was started) and what to do, or
 * another program when no running host did. `text` is the failure as the device layer said it (it
 * names the port); undefined when it is not about a held port.
 */
export function explainHeldPort(options: {
  text: string;
  hosts: readonly HostAnnouncement[];
  /** The device, when known: "lamp-1". */
  device?: string;
}): string | undefined {
  if (!saysPortIsHeld(options.text)) return undefined;
  const who = options.device ?? 'the device';
  for (const host of options.hosts) {
    const device = host.devices.find((candidate) => options.text.includes(candidate.path));
    if (device === undefined) continue;
    return `${who} cannot be opened here: its port ${device.path} is held by another Home Agent process, pid ${host.pid} (${host.command}). Use that one (its window, or the address it printed), or stop it (Ctrl+C where it runs, or kill ${host.pid}) and try again.`;
  }
  // The session's words name the port: "(<path>: open failed: … Cannot lock port)".
  const port = /\(([^()]+?): open failed/.exec(options.text)?.[1];
  return `${who} cannot be opened here: another program holds its port${port ? ` ${port}` : ''} (Cannot lock port). Close that program (a serial monitor, another Home Agent) and try again.`;
}

/** explainHeldPort with the hosts running now. */
export async function explainHeldPortNow(options: { text: string; device?: string }): Promise<string | undefined> {
  if (!saysPortIsHeld(options.text)) return undefined;
  return explainHeldPort({ ...options, hosts: await listAnnouncedHosts() });
}
