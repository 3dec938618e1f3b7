import type { Plugin } from '../../core/plugins/plugin.ts';
import type { OutputChannel } from '../../core/plugins/output-channel.ts';
import type { DeviceSummary, HostNotice } from '../contract/api-contract.ts';
import type { ApprovalTarget } from '../store/standing-approval-store.ts';
import type { DeviceAdmin } from './device-admin.ts';

/** What the host needs of the devices layer: its plugin, its display channels, a listing, and an owner to dispose. */
export interface DeviceLayer {
  plugin: Plugin;
  displayChannels(): OutputChannel[];
  list(): DeviceSummary[];
  /** Devices came, went, changed status or announced something. Returns the unsubscribe function. */
  onNotice?(listener: (notice: HostNotice) => void): () => void;
  /** Finding, pairing and changing paired devices; absent when the run keeps no paired devices. */
  admin?: DeviceAdmin;
  /**
   * What a standing approval of this call is about: the tool alone for a tool that is not a
   * device's, the tool on its device for a device's; undefined when the call's device cannot be told
   * (then no standing approval may cover it).
   */
  approvalTarget?(toolName: string, args: Record<string, unknown>): ApprovalTarget | undefined;
  dispose(): Promise<void>;
}
