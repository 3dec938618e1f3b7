import type { Plugin } from '../../core/plugins/plugin.ts';
import type { OutputChannel } from '../../core/plugins/output-channel.ts';
import type { DeviceSummary, HostNotice } from '../contract/api-contract.ts';

/** What the host needs of the devices layer: its plugin, its display channels, a listing, and an owner to dispose. */
export interface DeviceLayer {
  plugin: Plugin;
  displayChannels(): OutputChannel[];
  list(): DeviceSummary[];
  /** Devices came, went, changed status or announced something. Returns the unsubscribe function. */
  onNotice?(listener: (notice: HostNotice) => void): () => void;
  dispose(): Promise<void>;
}
