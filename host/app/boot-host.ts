import { createHost, type Host } from './create-host.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { attachDevices } from '../devices/attach-devices.ts';
import { announcedDeviceLayer } from '../devices/announced-device-layer.ts';
import { hostCommandName } from '../devices/host-announcement.ts';
import { HOME_AGENT_VERSION } from './version.ts';
import type { CommonFlags } from '../front/cli/common-flags.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { ApprovalPolicy } from '../approvals/person-approval-gate.ts';
import type { ApprovalRefusal } from '../../core/batch/run-tool-call.ts';

/**
 * Builds a host from the shared command-line flags: the settings for this run, the devices
 * (`--sim`, `--device`), the data folder. Its devices are announced while it runs (see
 * announcedDeviceLayer). The caller owns the host and disposes it.
 */
export async function bootHost(options: {
  flags: CommonFlags;
  transport: 'electron' | 'web' | 'cli' | 'mcp';
  log: (line: string) => void;
  signal: AbortSignal;
  secrets?: SecretStore;
  approvalPolicy?: ApprovalPolicy;
  /** With policy 'deny': why a call was not asked about, and what would allow it. */
  approvalDenial?: (toolName: string) => ApprovalRefusal;
}): Promise<Host> {
  const { flags } = options;
  return createHost({
    dataDir: resolveDataDir(flags.dataDir),
    transport: options.transport,
    settings: flags.settings,
    ...(flags.scriptFile !== undefined ? { scriptFile: flags.scriptFile } : {}),
    ...(flags.mcpConfigFile !== undefined ? { mcpConfigFile: flags.mcpConfigFile } : {}),
    attachDevices: async ({ pairingStore, standingApprovals, dataVersion, settings, secret }) =>
      announcedDeviceLayer(
        await attachDevices({
          sim: flags.sim,
          devices: flags.devices,
          pairingStore,
          standingApprovals,
          dataVersion,
          log: options.log,
          signal: options.signal,
          ...(flags.simLatencyMs !== undefined ? { simLatencyMs: flags.simLatencyMs } : {}),
          ...(settings.deviceEventsPerSecond !== undefined ? { eventsPerSecond: settings.deviceEventsPerSecond } : {}),
          settings,
          ...(secret ? { secret } : {}),
        }),
        { command: hostCommandName(options.transport), log: options.log },
      ),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.approvalPolicy ? { approvalPolicy: options.approvalPolicy } : {}),
    ...(options.approvalDenial ? { approvalDenial: options.approvalDenial } : {}),
    log: options.log,
    version: HOME_AGENT_VERSION,
  });
}
