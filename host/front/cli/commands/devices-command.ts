import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { DevicePairing, type PairingCandidate } from '../../../../devices/pairing/device-pairing.ts';
import { formatScanLine, scanPorts } from '../../../../devices/ways-in/serial-ports.ts';
import { PORT_SOURCE_MEANINGS } from '../../../../devices/ways-in/serial-port-sources.ts';
import { readWayInOptions, typedKeys, wayInOptionKeys } from '../../../../devices/links/read-way-in-options.ts';
import {
  formatRefusedDevice,
  formatScannedDevice,
  SCANNED_DEVICE_COLUMNS,
} from '../../../../devices/links/format-scanned-device.ts';
import type { WayIn } from '../../../../devices/links/way-in.ts';
import { wiringLines } from '../../../../devices/links/link-wiring.ts';
import { settingsTable, WAY_IN_SETTING_KEYS, type Settings } from '../../../contract/settings-table.ts';
import { readSettingFlags } from '../../../config/read-setting-values.ts';
import { REACHING_SETTING_KEYS, wayInSettingFlag, wayInSettingsUsage } from '../way-in-setting-usage.ts';
import { createDeviceRegistry, deviceWaysIn } from '../../../devices/create-device-layer.ts';
import { openDatabase } from '../../../store/open-database.ts';
import { PairedDeviceStore, type PairedDevice } from '../../../store/paired-device-store.ts';
import { StandingApprovalStore } from '../../../store/standing-approval-store.ts';
import { BUILTIN_PROFILE_NAMES } from '../../../../devices/ways-in/builtin-profile-formats.ts';
import { databaseFileOf, resolveDataDir } from '../../../config/data-dir.ts';
import { DEVICES_HELP } from './devices-help.ts';
import { UsageError, type CliIo } from '../../command-line/cli-io.ts';
import { safeText } from '../../../../core/text/safe-text.ts';
import { compactJson } from '../../../../core/tools/tool-result.ts';
import { displayNameSchema } from '../../../../core/text/display-name-schema.ts';
import { explainPairingFailure } from '../explain-pairing-failure.ts';
import { describeMove } from '../../../../devices/discovery/move-reason.ts';
import { confirmThroughHost, heldByRunningHost, pairThroughHost, runningHostApi } from './devices-through-host.ts';
import { roomKey } from '../../../../core/text/room-name.ts';
import { markDevicePin } from './devices-pin.ts';

/** The usage lines of `devices`, from its help (the one place they are written). */
export const DEVICES_USAGE = DEVICES_HELP.usage.map((line) => `home-agent ${line}`).join('\n');

/** What the columns of `devices scan` mean (on stderr, so stdout stays one line a port). */
const SCAN_LEGEND = `columns: PATH, SOURCE, VENDOR:PRODUCT (USB ids), SERIAL; empty where unknown. SOURCE: ${Object.entries(
  PORT_SOURCE_MEANINGS,
)
  .map(([source, meaning]) => `${source} = ${meaning}`)
  .join(', ')}. Scanning opened no port; pair one with: home-agent devices pair PATH`;

/** What the person is asked about; every line is shown safely, so a device cannot rewrite the prompt it is judged by. */
function describeCandidate(candidate: PairingCandidate): string {
  const { identity, tools } = candidate;
  const lines = [
    `${candidate.previousIdentity ? 'Changed device' : 'Found'} at ${candidate.path}:`,
    `  id ${identity.id}, kind ${identity.kind}, model ${identity.model}, firmware ${identity.firmware}`,
    ...(candidate.previousIdentity
      ? [
          `  was: id ${candidate.previousIdentity.id}, model ${candidate.previousIdentity.model}, firmware ${candidate.previousIdentity.firmware}`,
        ]
      : []),
    `  tools: ${tools.map((tool) => `${tool.name}${tool.confirm ? ' (asks you before each use)' : ''}${tool.serial ? ' (serial)' : tool.parallelSafe ? ' (parallel-safe)' : ''}`).join(', ') || '(none)'}`,
    ...(candidate.details ?? []).map((line) => `  ${line}`),
    ...(candidate.suggestedRoom !== undefined
      ? [`  suggested room: ${candidate.suggestedRoom} (kept if you pair it; --room names another)`]
      : []),
    ...(candidate.differences && candidate.differences.length > 0
      ? [
          '  declares otherwise than when it was paired:',
          ...candidate.differences.map(
            (difference) => `    ${difference.detail}${difference.stronger ? ' (more caution: applied already)' : ''}`,
          ),
        ]
      : []),
  ];
  return `${lines.map(safeText).join('\n')}\n`;
}

/** A name the person typed, checked by the same rule as the API's; a refusal is a usage error saying why. */
function checkedName(name: string, flag?: string): string {
  const parsed = displayNameSchema.safeParse(name);
  if (parsed.success) return parsed.data;
  throw new UsageError(`${flag ? `${flag}: ` : ''}${parsed.error.issues[0]?.message ?? 'the name cannot be used'}`);
}

/** What pairing a device again under its id loses, in words: its name, grants and standing approvals. */
function describeReplaced(previous: PairedDevice, alwaysAllowed: readonly string[]): string {
  return [
    `"${previous.alias}" at ${previous.path}`,
    `granted: ${previous.grants.join(', ') || '(none)'}`,
    `always allowed: ${alwaysAllowed.join(', ') || '(none)'}`,
  ].join('; ');
}

async function askYesNo(question: string, io: CliIo, refusal?: string): Promise<boolean> {
  if (!process.stdin.isTTY)
    throw new UsageError(
      refusal ??
        'pairing needs a confirmation: run it in a terminal, or pass --yes after checking the identity it prints',
    );
  const prompt = createInterface({ input: process.stdin, output: io.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

/**
 * `home-agent devices`: discover, pair, list, grant, revoke and forget serial devices. Pairing shows
 * the device's identity and stores it with no grants; the agent can use a device's tools only
 * after `grant`.
 */
export async function runDevicesCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      // Where devices are reached besides their own ports (a broker's URL): the settings of the ways in.
      ...Object.fromEntries(WAY_IN_SETTING_KEYS.map((key) => [settingsTable[key].flag, { type: 'string' as const }])),
      code: { type: 'string' },
      alias: { type: 'string' },
      room: { type: 'string' },
      none: { type: 'boolean' },
      // `--profile` and each way in's options (`--unit`, `--baud`, …), checked by its schema.
      profile: { type: 'string' },
      ...Object.fromEntries(
        wayInOptionKeys(deviceWaysIn())
          .filter((key) => key !== 'profile')
          .map((key) => [key, { type: 'string' as const }]),
      ),
      yes: { type: 'boolean' },
      standalone: { type: 'boolean' },
      all: { type: 'boolean' },
      json: { type: 'boolean' },
      path: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  const settings = readSettingFlags(values);
  const waysIn = deviceWaysIn(settings);
  const [action, ...rest] = positionals;
  if (values.help || !action) {
    io.stdout.write(`${DEVICES_USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (action === 'scan' && WAY_IN_SETTING_KEYS.some((key) => settings[key] !== undefined))
    return scanWaysIn(settings, waysIn, io);
  if (action === 'scan') {
    // Scanning opens no port (opening one resets many Arduinos): it reads what the OS and simulators say.
    const { candidates, warnings } = await scanPorts({ manualPaths: values.path ?? [], signal: io.signal });
    for (const warning of warnings) io.stderr.write(`home-agent: ${safeText(warning)}\n`);
    for (const candidate of candidates) io.stdout.write(`${formatScanLine(candidate)}\n`);
    if (candidates.length === 0)
      io.stderr.write(
        'home-agent: no serial ports found. Pair a pseudo-terminal or another path with: home-agent devices pair PATH\n',
      );
    else io.stderr.write(`home-agent: ${SCAN_LEGEND}\n`);
    return 0;
  }
  const db = openDatabase({ file: databaseFileOf(resolveDataDir(values['data-dir'])) });
  const registry = createDeviceRegistry({ settings });
  try {
    const store = new PairedDeviceStore({ db, waysIn });
    const standing = new StandingApprovalStore({ db });
    const pairing = new DevicePairing({ store, registry });
    const id = rest[0];
    const needId = (): string => {
      if (!id) throw new UsageError(`devices ${action} needs a device id (see: home-agent devices list)`);
      return id;
    };
    switch (action) {
      case 'pair': {
        if (!id)
          throw new UsageError(
            'devices pair needs the PATH of a port: `home-agent devices scan` lists them (and a running home-agent sim prints its own)',
          );
        // A port is stored absolute (a path typed relative to this folder means nothing to a host started
        // elsewhere); a way in that names its paths itself (`z2m:kitchen-lamp`) keeps them as typed.
        const named = registry.wayInFor({}, id).namesItsPaths === true;
        const path = named ? id : resolve(id);
        const code = pairingCodeOf(values.code);
        const profile =
          values.profile === undefined || BUILTIN_PROFILE_NAMES.includes(values.profile)
            ? values.profile
            : resolve(values.profile);
        const wayInOptions = wayInFlags(values, profile);
        const alias = values.alias === undefined ? undefined : checkedName(values.alias, '--alias');
        const room = values.room === undefined ? undefined : checkedName(values.room, '--room');
        // Checked first: a port that is not there would be waited for, then blamed on the device or its bus settings.
        if (!named && !existsSync(path))
          throw new Error(
            `no such port ${path} (is it plugged in? \`home-agent devices scan\` lists the ports it finds)`,
          );
        // A port the running host holds is asked through it; any other is opened here, as the person chose it.
        const host =
          values.standalone === true || !(await heldByRunningHost(path))
            ? undefined
            : await runningHostApi(resolveDataDir(values['data-dir']));
        if (host) {
          try {
            return await pairThroughHost({
              ...host,
              placement: {
                path,
                ...(profile !== undefined ? { profile } : {}),
                ...(wayInOptions ? { options: wayInOptions as Record<string, string | number | boolean> } : {}),
                ...(code !== undefined ? { code } : {}),
              },
              ...(alias !== undefined ? { alias } : {}),
              ...(room !== undefined ? { room } : {}),
              yes: values.yes === true,
              io,
            });
          } finally {
            host.api.close();
          }
        }
        const paired = await pairing
          .pair({
            path,
            ...(alias !== undefined ? { alias } : {}),
            ...(room !== undefined ? { room } : {}),
            // The room its source suggests is printed with what is confirmed: the person's yes keeps it.
            acceptSuggestedRoom: true,
            ...(profile ? { profile } : {}),
            ...(wayInOptions ? { wayInOptions } : {}),
            ...(code !== undefined ? { code } : {}),
            signal: io.signal,
            confirm: async (candidate) => {
              io.stdout.write(describeCandidate(candidate));
              const id = candidate.identity.id;
              const previous = store.get(id);
              if (previous === undefined)
                return values.yes === true || (await askYesNo('Pair this device? [y/N] ', io));
              const alwaysAllowed = standing
                .list()
                .filter((approval) => approval.deviceId === id)
                .map((approval) => approval.tool);
              const replaced = describeReplaced(previous, alwaysAllowed);
              io.stdout.write(
                `  ${id} is paired already (${replaced}): pairing it again replaces that pairing, and its name, grants and standing approvals are lost\n`,
              );
              return (
                values.yes === true ||
                (await askYesNo(
                  `Replace the pairing of ${id}? [y/N] `,
                  io,
                  `${id} is paired already (${replaced}); pairing it again loses its name, grants and standing approvals. Answer on a terminal, or pass --yes to replace it`,
                ))
              );
            },
          })
          .catch(async (error: unknown) => {
            if (error instanceof UsageError || named) throw error;
            throw new Error(await explainPairingFailure({ path, error, ...(profile ? { profile } : {}) }));
          });
        if (!paired) {
          io.stdout.write('Not paired.\n');
          return 1;
        }
        io.stdout.write(
          `Paired ${paired.identity.id} as "${safeText(paired.alias)}"${paired.room !== undefined ? ` in the room "${safeText(paired.room)}"` : ''}. The agent may use none of its tools yet: home-agent devices grant ${paired.identity.id} ${paired.tools.map((tool) => tool.name).join(' ')}\n`,
        );
        return 0;
      }
      case 'list': {
        const devices = store.list();
        if (values.json) io.stdout.write(`${compactJson(devices.map(listed))}\n`);
        else if (devices.length === 0)
          io.stdout.write('No paired devices. Pair one with: home-agent devices pair PATH\n');
        else
          for (const [heading, device] of byRoom(devices))
            io.stdout.write(
              `${heading === undefined ? '' : `${safeText(heading)}\n`}${[
                device.identity.id,
                `"${device.alias}"`,
                device.identity.kind,
                `${device.path}${placed(device)}${device.profile ? ` (profile ${device.profile})` : ''}`,
                `granted: ${device.grants.join(', ') || '(none)'}`,
                ...(device.movedFrom
                  ? [describeMove({ from: device.movedFrom.path, to: device.path, because: device.movedFrom.because })]
                  : []),
              ]
                .map(safeText)
                .join('\t')}\n${pinnedWiring(device)}`,
            );
        return 0;
      }
      case 'grant':
      case 'revoke': {
        const deviceId = needId();
        const known = store.get(deviceId);
        if (!known) throw notPaired(deviceId);
        const actions = values.all ? known.tools.map((tool) => tool.name) : rest.slice(1);
        if (actions.length === 0)
          throw new UsageError(
            `devices ${action} needs the actions to ${action} (${known.tools.map((tool) => tool.name).join(', ')}) or --all`,
          );
        const updated = action === 'grant' ? pairing.grant(deviceId, actions) : pairing.revoke(deviceId, actions);
        io.stdout.write(`${deviceId} granted: ${updated.grants.join(', ') || '(none)'}\n`);
        return 0;
      }
      case 'confirm': {
        const deviceId = needId();
        if (!store.get(deviceId)) throw notPaired(deviceId);
        // The running host holds the device's port: it is asked there, and trusted there.
        const host = values.standalone === true ? undefined : await runningHostApi(resolveDataDir(values['data-dir']));
        if (host) {
          try {
            return await confirmThroughHost({ api: host.api, deviceId, yes: values.yes === true, io });
          } finally {
            host.api.close();
          }
        }
        await pairing.attachPaired();
        const entry = registry.get(deviceId);
        await entry?.session.whenOnline({ timeoutMs: 5000, signal: io.signal }).catch(() => undefined);
        if (registry.get(deviceId)?.trusted) {
          io.stdout.write(`${deviceId} answers with the identity you paired: nothing to confirm.\n`);
          return 0;
        }
        const accepted = await pairing.reconfirm(deviceId, async (candidate) => {
          io.stdout.write(describeCandidate(candidate));
          return values.yes === true || (await askYesNo('Trust this device as it is now? [y/N] ', io));
        });
        io.stdout.write(
          accepted
            ? `${deviceId} is trusted again, with its grants.\n`
            : `${deviceId} stays untrusted: the agent cannot use it.\n`,
        );
        return accepted ? 0 : 1;
      }
      case 'rename': {
        const deviceId = needId();
        const typed = rest.slice(1).join(' ');
        if (!typed.trim())
          throw new UsageError('devices rename needs the new name, e.g. home-agent devices rename lamp-1 Desk lamp');
        const alias = checkedName(typed);
        if (!store.get(deviceId)) throw notPaired(deviceId);
        const renamed = pairing.rename(deviceId, alias);
        io.stdout.write(`${deviceId} is now "${safeText(renamed.alias)}".\n`);
        return 0;
      }
      case 'room': {
        const deviceId = needId();
        const typed = rest.slice(1).join(' ');
        if (values.none === true && typed.trim() !== '')
          throw new UsageError('devices room takes a ROOM or --none, not both');
        if (values.none !== true && !typed.trim())
          throw new UsageError(
            'devices room needs the room, e.g. home-agent devices room lamp-1 Kitchen (or --none to take it out of its room)',
          );
        const room = values.none === true ? undefined : checkedName(typed);
        if (!store.get(deviceId)) throw notPaired(deviceId);
        const placed = pairing.setRoom(deviceId, room);
        io.stdout.write(
          placed.room === undefined
            ? `${deviceId} is in no room.\n`
            : `${deviceId} is in the room "${safeText(placed.room)}".\n`,
        );
        return 0;
      }
      case 'pin': {
        io.stdout.write(markDevicePin({ db, store, args: rest }));
        return 0;
      }
      case 'forget': {
        const deviceId = needId();
        const forgotten = await pairing.forget(deviceId);
        io.stdout.write(
          forgotten ? `Forgot ${deviceId}: its record and grants are gone.\n` : `${deviceId} was not paired.\n`,
        );
        return forgotten ? 0 : 1;
      }
      default:
        throw new UsageError(`unknown devices action '${action}'`);
    }
  } finally {
    await registry.dispose();
    db.close();
  }
}

/** The way-in options of `devices pair` (`--unit 1`), checked by their way in's schema (a bad value is a UsageError naming it); undefined when none is given. */
function wayInFlags(values: Record<string, unknown>, profile: string | undefined): Record<string, unknown> | undefined {
  const keys = wayInOptionKeys(deviceWaysIn()).filter((key) => key !== 'profile' && typeof values[key] === 'string');
  if (keys.length === 0) return undefined;
  try {
    return readWayInOptions(
      deviceWaysIn(),
      { profile, options: Object.fromEntries(keys.map((key) => [key, values[key] as string])) },
      (key) => `--${key}`,
    );
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * A pairing as `devices list --json` shows it: the record, and the fields its way in showed before the
 * seam. What a one-time pairing step agreed (options its way in keeps but nobody types) is not shown.
 */
function listed(device: PairedDevice): Record<string, unknown> {
  const way = deviceWaysIn().find((candidate) => candidate.kind === device.wayIn);
  const before = way?.listedBefore?.(device.options ?? {});
  const { options, path, alias, room, ...record } = device;
  const typed = way === undefined ? undefined : typedKeys(way);
  const shown = Object.fromEntries(
    Object.entries(options ?? {}).filter(([key]) => typed === undefined || typed.includes(key)),
  );
  // "room" right after "alias", '' for a device in none: always a string.
  return {
    path,
    alias,
    room: room ?? '',
    ...record,
    ...(Object.keys(shown).length > 0 ? { options: shown } : {}),
    ...before,
  };
}

/** A one-time code `--code` gives: letters, digits and `-`, as a bridge prints it; a UsageError otherwise. */
function pairingCodeOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!/^[A-Za-z0-9-]{1,64}$/.test(text))
    throw new UsageError('--code takes the pairing code as printed: letters, digits and -, no spaces');
  return text;
}

/**
 * `devices scan` with a broker's URL: the devices the ways in that look by themselves find (behind a broker),
 * one tab-separated line each (PATH, SOURCE, ID, KIND, MODEL, STATE), the legend on stderr.
 */
async function scanWaysIn(settings: Settings, waysIn: readonly WayIn[], io: CliIo): Promise<number> {
  const reaching = REACHING_SETTING_KEYS.filter((key) => settings[key] !== undefined);
  if (reaching.length === 0)
    throw new UsageError(
      `devices scan: ${REACHING_SETTING_KEYS.map((key) => wayInSettingFlag(key)).join(' or ')} names the broker to scan`,
    );
  const registry = createDeviceRegistry({ settings });
  try {
    const found = await registry.scan({ timeoutMs: 10_000, signal: io.signal });
    for (const device of found) io.stdout.write(`${formatScannedDevice(device)}\n`);
    const meanings = waysIn.flatMap((way) => Object.entries(way.sourceMeanings ?? {}));
    io.stderr.write(
      found.length === 0
        ? 'home-agent: no devices found (a bridge or device announces itself on the broker when it starts)\n'
        : `home-agent: columns: ${SCANNED_DEVICE_COLUMNS.join(', ')}. SOURCE: ${meanings.map(([source, meaning]) => `${source} = ${meaning}`).join(', ')}. Scanning granted nothing; pair one with: home-agent devices pair PATH ${wayInSettingsUsage()}\n`,
    );
    // What was announced but is not offered is said too (stdout stays one line per device offered: scripts read it).
    for (const refused of registry.refusedInScan()) io.stderr.write(`${formatRefusedDevice(refused)}\n`);
    return 0;
  } finally {
    await registry.dispose();
  }
}

/** The wiring pinned with a pairing (where its commands go, what they send), one indented line a field; empty when none. */
function pinnedWiring(device: PairedDevice): string {
  return wiringLines(device.pinned?.wiring)
    .map((line) => `  pinned ${safeText(line)}\n`)
    .join('');
}

/** What a pairing's way in adds after its path in a listing (` unit 1 at 9600 8N1`). */
function placed(device: PairedDevice): string {
  const described = deviceWaysIn()
    .find((way) => way.kind === device.wayIn)
    ?.describe(device.options ?? {});
  return described ? ` ${described}` : '';
}

/**
 * The devices as the human list shows them: grouped by room, rooms in name order and those in none
 * last, each group's first device with its heading (`Kitchen (2):`); no headings when no device has a room.
 */
function byRoom(devices: readonly PairedDevice[]): [string | undefined, PairedDevice][] {
  if (devices.every((device) => device.room === undefined)) return devices.map((device) => [undefined, device]);
  const groups = new Map<string, PairedDevice[]>();
  for (const device of devices) {
    const key = device.room === undefined ? '' : roomKey(device.room);
    groups.set(key, [...(groups.get(key) ?? []), device]);
  }
  const keys = [...groups.keys()].sort((a, b) => (a === '' ? 1 : b === '' ? -1 : a < b ? -1 : a > b ? 1 : 0));
  return keys.flatMap((key) => {
    const members = groups.get(key)!;
    const heading = `${members[0]!.room ?? 'No room'} (${members.length}):`;
    return members.map((device, index): [string | undefined, PairedDevice] => [
      index === 0 ? heading : undefined,
      device,
    ]);
  });
}

/** A device id the store does not know: the command line was right, the home is not as assumed (exit 1, no usage). */
function notPaired(deviceId: string): Error {
  return new Error(`${deviceId} is not paired (see: home-agent devices list)`);
}
