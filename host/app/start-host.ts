import { createHost, type Host, type HostOptions } from './create-host.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { attachDevices, type DeviceToAttach } from '../devices/attach-devices.ts';
import { announcedDeviceLayer } from '../devices/announced-device-layer.ts';
import { hostCommandName } from '../devices/host-announcement.ts';
import { HOME_AGENT_VERSION } from './version.ts';
import { settingValue, type Settings } from '../contract/settings-table.ts';
import type { PluginRunOptions } from '../config/plugin-flag.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { ApprovalPolicy } from '../approvals/person-approval-gate.ts';
import type { ApprovalRefusal } from '../../core/batch/run-tool-call.ts';

/** What a run asks of the host, whoever read it (a command line's flags, the desktop app's environment). */
export interface HostRunConfig {
  /** Settings given for this run; they win over the stored ones. */
  settings: Settings;
  /** The replies of the scripted model. */
  scriptFile?: string;
  /** The data folder (default: the usual one). */
  dataDir?: string;
  /** Attach the simulated devices. */
  sim: boolean;
  simLatencyMs?: number;
  /** Devices on ports, each with its profile and its way in's options. */
  devices: DeviceToAttach[];
  /** What plugins take for this run (from their flags), by option name. */
  pluginOptions?: PluginRunOptions;
}

/** A run's config and how the front end that starts it is reached and named. */
export interface StartHostConfig extends HostRunConfig {
  transport: HostOptions['transport'];
  /** How a person would name this process (`home-agent serve`), announced beside its devices. */
  command: string;
  log: (line: string) => void;
  signal: AbortSignal;
  secrets?: SecretStore;
  approvalPolicy?: ApprovalPolicy;
  /** With policy 'deny': why a call was not asked about, and what would allow it. */
  approvalDenial?: (toolName: string) => ApprovalRefusal;
}

/**
 * Starts the services for one front end: the settings for this run, the devices (simulated, on
 * ports), the data folder, the plugins' options. Its devices are announced while it runs (see
 * announcedDeviceLayer). The caller owns the host and disposes it.
 */
export async function startHost(config: StartHostConfig): Promise<Host> {
  return createHost({
    ...config.pluginOptions,
    dataDir: resolveDataDir(config.dataDir),
    transport: config.transport,
    settings: config.settings,
    ...(config.scriptFile !== undefined ? { scriptFile: config.scriptFile } : {}),
    attachDevices: async ({ pairingStore, standingApprovals, dataVersion, settings, currentSettings, secret }) =>
      announcedDeviceLayer(
        await attachDevices({
          sim: config.sim,
          devices: config.devices,
          pairingStore,
          standingApprovals,
          dataVersion,
          log: config.log,
          signal: config.signal,
          ...(config.simLatencyMs !== undefined ? { simLatencyMs: config.simLatencyMs } : {}),
          eventsPerSecond: settingValue(settings, 'deviceEventsPerSecond'),
          promptDevices: () => settingValue(currentSettings?.() ?? settings, 'promptDevices'),
          settings,
          ...(secret ? { secret } : {}),
        }),
        { command: hostCommandName(config.command), log: config.log },
      ),
    ...(config.secrets ? { secrets: config.secrets } : {}),
    ...(config.approvalPolicy ? { approvalPolicy: config.approvalPolicy } : {}),
    ...(config.approvalDenial ? { approvalDenial: config.approvalDenial } : {}),
    log: config.log,
    version: HOME_AGENT_VERSION,
  });
}
