import { createHost, type Host } from './create-host.ts';
import { resolveDataDir } from '../config/data-dir.ts';
import { selectModel } from '../models/select-model.ts';
import { attachDevices } from './attach-devices.ts';
import { HOME_AGENT_VERSION } from './version.ts';
import type { CommonFlags } from '../cli/common-flags.ts';

/**
 * Builds a host from the shared command-line flags: the model, the devices (`--sim`, `--device`),
 * the data folder. The caller owns the host and disposes it.
 */
export async function bootHost(options: { flags: CommonFlags; transport: 'electron' | 'web' | 'cli'; log: (line: string) => void; signal: AbortSignal }): Promise<{ host: Host; modelNotice?: string }> {
  const { flags } = options;
  const selected = await selectModel(flags.modelChoice);
  const devices = await attachDevices({
    sim: flags.sim,
    devicePaths: flags.devicePaths,
    log: options.log,
    signal: options.signal,
    ...(flags.simLatencyMs !== undefined ? { simLatencyMs: flags.simLatencyMs } : {}),
  });
  try {
    const host = createHost({
      dataDir: resolveDataDir(flags.dataDir),
      transport: options.transport,
      model: selected.adapter,
      ...(selected.notice ? { modelNotice: selected.notice } : {}),
      settings: {
        ...(flags.toolOrder !== undefined ? { toolOrder: flags.toolOrder } : {}),
        ...(flags.maxSteps !== undefined ? { maxSteps: flags.maxSteps } : {}),
      },
      ...(devices ? { devices } : {}),
      log: options.log,
      version: HOME_AGENT_VERSION,
    });
    return { host, ...(selected.notice ? { modelNotice: selected.notice } : {}) };
  } catch (error) {
    await devices?.dispose();
    throw error;
  }
}
