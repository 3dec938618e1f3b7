import { createHost, type Host } from './create-host.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { attachDevices } from './attach-devices.ts';
import { HOME_AGENT_VERSION } from './version.ts';
import type { CommonFlags } from '../cli/common-flags.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { ApprovalPolicy } from './person-approval-gate.ts';

/**
 * Builds a host from the shared command-line flags: the model, the devices (`--sim`, `--device`),
 * the data folder. The caller owns the host and disposes it.
 */
export async function bootHost(options: {
  flags: CommonFlags;
  transport: 'electron' | 'web' | 'cli';
  log: (line: string) => void;
  signal: AbortSignal;
  secrets?: SecretStore;
  approvalPolicy?: ApprovalPolicy;
}): Promise<Host> {
  const { flags } = options;
  return createHost({
    dataDir: resolveDataDir(flags.dataDir),
    transport: options.transport,
    modelChoice: flags.modelChoice,
    settings: {
      ...(flags.toolOrder !== undefined ? { toolOrder: flags.toolOrder } : {}),
      ...(flags.maxSteps !== undefined ? { maxSteps: flags.maxSteps } : {}),
      ...(flags.concurrencyCap !== undefined ? { concurrencyCap: flags.concurrencyCap } : {}),
    },
    attachDevices: ({ pairingStore }) =>
      attachDevices({
        sim: flags.sim,
        devices: flags.devices,
        pairingStore,
        log: options.log,
        signal: options.signal,
        ...(flags.simLatencyMs !== undefined ? { simLatencyMs: flags.simLatencyMs } : {}),
      }),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.approvalPolicy ? { approvalPolicy: options.approvalPolicy } : {}),
    log: options.log,
    version: HOME_AGENT_VERSION,
  });
}
