import { Emitter } from '../../core/events/emitter.ts';
import { DevicePairing } from '../../devices/pairing/device-pairing.ts';
import type { PairingStore } from '../../devices/pairing/pairing-store.ts';
import { DeviceRegistry, type DeviceRegistryOptions } from '../../devices/registry/device-registry.ts';
import type { WayIn } from '../../devices/links/way-in.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';
import { authorizeDeviceCall } from '../../devices/tools/authorize-device-call.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import { displayChannels } from '../../devices/tools/display-channels.ts';
import { withheldDeviceAction } from '../../devices/tools/withheld-device-action.ts';
import type { HostNotice } from '../contract/api-contract.ts';
import type { Settings } from '../contract/settings-table.ts';
import type { ApprovalTarget, StandingApprovalStore } from '../store/standing-approval-store.ts';
import { DeviceActivity } from './device-activity.ts';
import { DeviceAdmin } from './device-admin.ts';
import type { DeviceLayer } from './device-layer.ts';
import { summarizeDevices } from './device-summaries.ts';
import { PairedDevicesSync } from './paired-devices-sync.ts';
import { syncedDevicesPlugin } from './synced-devices-plugin.ts';
import type { PromptDevicesMode } from '../../core/prompt/rooms-section.ts';

/** Each paired device's room, by id (devices in no room are absent). */
function roomsOf(store: PairingStore): Map<string, string> {
  return new Map(
    store.list().flatMap((device) => (device.room === undefined ? [] : [[device.identity.id, device.room]])),
  );
}

/**
 * The ways a device may connect, in the order they claim one: what the registry, the store and the
 * flags are given. Each way in reads its own `settings` (read at start) and may use the secrets the
 * front end keeps (`secret`, the desktop app's keychain, by the name the way in declares).
 */
export function deviceWaysIn(settings: Settings = {}, secret?: (name: string) => string | undefined): WayIn[] {
  return builtinWaysIn({ settings, ...(secret ? { secret } : {}) });
}

/** A registry that opens the ways in of `deviceWaysIn` (the only place the host names where they come from). */
export function createDeviceRegistry(
  options: Omit<DeviceRegistryOptions, 'waysIn'> & {
    settings?: Settings;
    secret?: (name: string) => string | undefined;
  } = {},
): DeviceRegistry {
  const { settings, secret, ...registryOptions } = options;
  return new DeviceRegistry({ ...registryOptions, waysIn: deviceWaysIn(settings, secret) });
}

/**
 * The devices layer over a registry that already holds the devices named on the command line:
 * adds the paired devices of the store and keeps them true to it (PairedDevicesSync), the
 * operations of the Devices tab (DeviceAdmin), the listing, the notices, and what a standing
 * approval of a call is about. `close` releases what the caller started (simulators).
 */
export function createDeviceLayer(options: {
  registry: DeviceRegistry;
  close: () => Promise<void>;
  pairingStore?: PairingStore;
  standingApprovals?: StandingApprovalStore;
  dataVersion?: () => number;
  storePollMs?: number;
  /** How the prompt lists the devices (the setting promptDevices, read at every turn); absent: all. */
  promptDevices?: () => PromptDevicesMode;
  log: (line: string) => void;
}): DeviceLayer {
  const { registry } = options;
  const commandLineAddresses = new Set(registry.list().map((device) => device.address));
  // Changes the registry does not announce itself: standing approvals and conflicts in the store, a new last error.
  const storeNotices = new Emitter<HostNotice>({ name: 'store change' });
  const activity = new DeviceActivity(registry, { onChange: () => storeNotices.emit({ type: 'devices/changed' }) });
  logDeviceNews(registry, options.log);
  let sync: PairedDevicesSync | undefined;
  let admin: DeviceAdmin | undefined;
  if (options.pairingStore) {
    const pairing = new DevicePairing({ store: options.pairingStore, registry });
    let seen = signatureOf();
    sync = new PairedDevicesSync({
      registry,
      store: options.pairingStore,
      pairing,
      dataVersion: options.dataVersion ?? (() => 0),
      commandLineAddresses,
      ...(options.storePollMs !== undefined ? { pollMs: options.storePollMs } : {}),
      onStoreChange: () => {
        const now = signatureOf();
        if (now.approvals !== seen.approvals) storeNotices.emit({ type: 'approvals/changed' });
        // A room is the store's alone (the registry does not announce it): its change is said here.
        if (now.conflicts !== seen.conflicts || now.rooms !== seen.rooms)
          storeNotices.emit({ type: 'devices/changed' });
        seen = now;
      },
      log: options.log,
    });
    sync.refresh();
    seen = signatureOf();
    sync.start();
    admin = new DeviceAdmin({ registry, store: options.pairingStore, pairing, sync, commandLineAddresses });
  }
  const check = (): void => void sync?.check();

  function signatureOf(): { approvals: string; conflicts: string; rooms: string } {
    return {
      rooms: options.pairingStore ? JSON.stringify([...roomsOf(options.pairingStore)]) : '',
      approvals: JSON.stringify(options.standingApprovals?.list() ?? []),
      conflicts: JSON.stringify(sync?.conflicts().map((conflict) => conflict.message) ?? []),
    };
  }

  const { pairingStore, promptDevices } = options;
  const inner = createDevicesPlugin(registry, {
    ...(pairingStore ? { rooms: () => roomsOf(pairingStore) } : {}),
    ...(promptDevices ? { promptDevices } : {}),
  });
  const plugin = syncedDevicesPlugin(inner, { check, withheld: (name) => withheldDeviceAction(registry, name) });
  return {
    plugin,
    ...(admin ? { admin } : {}),
    onNotice: (listener) => {
      const stops = [
        registry.onChange(() => listener({ type: 'devices/changed' })),
        registry.onEvent((event) =>
          listener({ type: 'device/event', deviceId: event.deviceId, event: event.event, data: event.data }),
        ),
        storeNotices.subscribe(listener),
      ];
      return () => {
        for (const stop of stops) stop();
      };
    },
    displayChannels: () => displayChannels(registry),
    list: () => {
      check();
      return summarizeDevices({
        registry,
        store: options.pairingStore,
        activity,
        conflicts: sync?.conflicts() ?? [],
        commandLineAddresses,
        standing: options.standingApprovals?.list() ?? [],
      });
    },
    approvalTarget: (toolName, args): ApprovalTarget | undefined => {
      if (!inner.tools().some((tool) => tool.name === toolName)) return { tool: toolName };
      const separator = toolName.indexOf('__');
      const decision = authorizeDeviceCall(registry, {
        kind: toolName.slice(0, separator),
        action: toolName.slice(separator + 2),
        args,
      });
      return decision.ok ? { tool: toolName, deviceId: decision.device.trustedIdentity.id } : undefined;
    },
    dispose: async () => {
      await sync?.dispose();
      activity.dispose();
      storeNotices.clear();
      await registry.dispose();
      await options.close();
    },
  };
}

/**
 * Reports the first dropped frame of each kind per device (the counters keep counting in
 * devices/list), and what devices announce on their own (a door opening), so a person sees both in
 * the log. The registry owns these subscriptions: they end with it.
 */
function logDeviceNews(registry: DeviceRegistry, log: (line: string) => void): void {
  const reported = new Set<string>();
  registry.onProblem((problem) => {
    if (problem.problem === 'connection') return;
    if (problem.problem === 'hello_refused' || problem.problem === 'event_flood') {
      // Once per reason: a refused device is asked again and again, and a flood lasts.
      const key = `${problem.deviceId}:${problem.detail}`;
      if (!reported.has(key)) log(`${problem.deviceId}: ${problem.detail}`);
      reported.add(key);
      return;
    }
    const key = `${problem.deviceId}:${problem.problem}`;
    if (reported.has(key)) return;
    reported.add(key);
    log(
      `${problem.deviceId} sent a frame that was dropped (${problem.problem}: ${problem.detail}); further ones are only counted`,
    );
  });
  registry.onEvent((event) =>
    log(`${event.deviceId} reports ${event.event}${event.data === undefined ? '' : ` ${JSON.stringify(event.data)}`}`),
  );
}
