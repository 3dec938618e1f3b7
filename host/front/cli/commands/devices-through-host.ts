import { createInterface } from 'node:readline/promises';
import { safeText } from '../../../../core/text/safe-text.ts';
import type { DeviceAction } from '../../../contract/device-contract.ts';
import { linkPathOf } from '../../../link/link-path.ts';
import { openLinkDoor } from '../../../link/find-home-holder.ts';
import { LinkApiClient } from '../../../link/link-api-client.ts';
import type { LinkHolder } from '../../../link/link-messages.ts';
import { UsageError, type CliIo } from '../../command-line/cli-io.ts';
import { listAnnouncedHosts } from '../../../devices/host-announcement.ts';

/** The API of the host that runs this data folder's home, when one does (it holds the devices' ports). */
export async function runningHostApi(dataDir: string): Promise<{ api: LinkApiClient; holder: LinkHolder } | undefined> {
  const opened = await openLinkDoor(linkPathOf(dataDir).path, 'api', { command: 'home-agent devices' });
  if (!opened) return undefined;
  if (!opened.welcome.ok) {
    opened.socket.destroy();
    throw new Error(opened.welcome.error);
  }
  return { api: new LinkApiClient(opened.socket), holder: opened.welcome.holder };
}

/** Whether a running host announced `path` among its devices' ports (it holds it open). */
export async function heldByRunningHost(path: string): Promise<boolean> {
  return (await listAnnouncedHosts()).some((host) => host.devices.some((device) => device.path === path));
}

/**
 * `devices pair` of a port a running host holds: that host opens the port (it may hold it already) to
 * ask the device who it is, the person checks what it says here, and that host pairs it — with
 * exactly what was shown (its identity and declaration hash), so the window sees it at once.
 */
export async function pairThroughHost(options: {
  api: LinkApiClient;
  holder: LinkHolder;
  placement: { path: string; profile?: string; options?: Record<string, string | number | boolean>; code?: string };
  alias?: string;
  room?: string;
  yes: boolean;
  io: CliIo;
}): Promise<number> {
  const { api, io } = options;
  io.stderr.write(
    `home-agent devices: ${options.holder.command} (pid ${options.holder.pid}) runs this home: it opens the port\n`,
  );
  const probed = await api.call('devices/probe', options.placement);
  if (probed.conflict !== undefined) throw new Error(probed.conflict);
  io.stdout.write(
    describe({
      heading: `Found at ${probed.path}:`,
      identity: probed.identity,
      actions: probed.actions,
      details: probed.details,
      ...(probed.previous ? { was: probed.previous.identity } : {}),
    }),
  );
  if (probed.previous)
    io.stdout.write(
      `  ${probed.identity.id} is paired already ("${safeText(probed.previous.alias)}" at ${safeText(probed.previous.path)}): pairing it again replaces that pairing, and its name, grants and standing approvals are lost\n`,
    );
  const question = probed.previous
    ? `Replace the pairing of ${probed.identity.id}? [y/N] `
    : 'Pair this device? [y/N] ';
  if (!(options.yes || (await askYesNo(question, io)))) {
    io.stdout.write('Not paired.\n');
    return 1;
  }
  const paired = await api.call('devices/pair', {
    path: options.placement.path,
    ...(options.placement.profile !== undefined ? { profile: options.placement.profile } : {}),
    ...(options.placement.options !== undefined ? { options: options.placement.options } : {}),
    ...(options.alias !== undefined ? { alias: options.alias } : {}),
    ...(options.room !== undefined ? { room: options.room } : {}),
    identity: probed.identity,
    ...(probed.declarationHash !== undefined ? { declarationHash: probed.declarationHash } : {}),
  });
  io.stdout.write(
    `Paired ${paired.deviceId} as "${safeText(paired.alias)}"${paired.room ? ` in the room "${safeText(paired.room)}"` : ''}. The agent may use none of its tools yet: home-agent devices grant ${paired.deviceId} ${probed.actions.map((action) => action.name).join(' ')}\n`,
  );
  return 0;
}

/** `devices confirm` while a host runs the home: what that host's device announces now, trusted there. */
export async function confirmThroughHost(options: {
  api: LinkApiClient;
  deviceId: string;
  yes: boolean;
  io: CliIo;
}): Promise<number> {
  const { api, io, deviceId } = options;
  const device = (await api.call('devices/list', {})).devices.find((summary) => summary.id === deviceId);
  if (!device) throw new Error(`${deviceId} is not paired (see: home-agent devices list)`);
  if (device.trusted !== false || !device.identityChange) {
    io.stdout.write(`${deviceId} answers with the identity you paired: nothing to confirm.\n`);
    return 0;
  }
  const change = device.identityChange;
  io.stdout.write(
    describe({
      heading: `Changed device at ${device.path}:`,
      identity: change.current,
      actions: change.currentActions,
      details: (change.differences ?? []).map((difference) => difference.detail),
      was: change.trusted,
    }),
  );
  const accepted = options.yes || (await askYesNo('Trust this device as it is now? [y/N] ', io));
  if (accepted)
    await api.call('devices/trust', {
      deviceId,
      identity: change.current,
      ...(change.declarationHash !== undefined ? { declarationHash: change.declarationHash } : {}),
    });
  io.stdout.write(
    accepted
      ? `${deviceId} is trusted again, with its grants.\n`
      : `${deviceId} stays untrusted: the agent cannot use it.\n`,
  );
  return accepted ? 0 : 1;
}

/** What the person is asked about, each line shown safely (a device cannot rewrite the prompt it is judged by). */
function describe(options: {
  heading: string;
  identity: { id: string; kind: string; model: string; firmware: string };
  actions: readonly DeviceAction[];
  details: readonly string[];
  was?: { id: string; model: string; firmware: string };
}): string {
  const { identity, was } = options;
  const lines = [
    options.heading,
    `  id ${identity.id}, kind ${identity.kind}, model ${identity.model}, firmware ${identity.firmware}`,
    ...(was ? [`  was: id ${was.id}, model ${was.model}, firmware ${was.firmware}`] : []),
    `  tools: ${options.actions.map((action) => `${action.name}${action.asksApproval ? ' (asks you before each use)' : ''}${action.serial ? ' (serial)' : action.parallelSafe ? ' (parallel-safe)' : ''}`).join(', ') || '(none)'}`,
    ...options.details.map((line) => `  ${line}`),
  ];
  return `${lines.map(safeText).join('\n')}\n`;
}

async function askYesNo(question: string, io: CliIo): Promise<boolean> {
  if (!process.stdin.isTTY)
    throw new UsageError(
      'this needs a confirmation: run it in a terminal, or pass --yes after checking what it prints',
    );
  const prompt = createInterface({ input: process.stdin, output: io.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}
