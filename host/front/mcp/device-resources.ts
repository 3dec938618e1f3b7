import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { safeText } from '../../../core/text/safe-text.ts';
import type { AuthorizationContext } from '../../../core/tools/tool-definition.ts';
import type { ToolApi } from '../../../core/tools/tool-api.ts';
import type { DeviceSummary } from '../../contract/device-contract.ts';

/** Where a device is found as a resource: `home-agent://device/ID`. */
export const DEVICE_URI_PREFIX = 'home-agent://device/';

/** What of the host lists its devices (the Devices tab's own list). */
export interface DeviceList {
  'devices/list'(input: Record<string, never>): Promise<{ devices: DeviceSummary[] }> | { devices: DeviceSummary[] };
}

/** A device a session may read: its identity and the read tool that says its state. */
export interface ReadableDevice {
  id: string;
  alias: string;
  kind: string;
  /** `<kind>__get` or `<kind>__read`: read-only, asking nobody. */
  reader: string;
}

/** The read actions of a kind, tried in this order (as the read-back after a Stop does). */
const READ_ACTIONS = ['get', 'read'] as const;

/** The kind's read tool among the enabled ones: only reads, never asks the person. */
function readerOf(toolApi: ToolApi, kind: string): string | undefined {
  for (const action of READ_ACTIONS) {
    const tool = toolApi.byName(`${kind}__${action}`);
    if (tool && tool.readOnly && !tool.needsApproval) return tool.name;
  }
  return undefined;
}

/**
 * The devices attached now (paired, or named on the command line; trusted, not left out) that
 * `context` may read: the CanUse gate allows their kind's read tool on them, as it would a call.
 */
export async function readableDevices(
  home: { toolApi: ToolApi; handlers: DeviceList },
  context: AuthorizationContext,
): Promise<ReadableDevice[]> {
  const { devices } = await home.handlers['devices/list']({});
  const readable: ReadableDevice[] = [];
  for (const device of devices) {
    if (device.status === 'left-out' || device.trusted === false) continue;
    const reader = readerOf(home.toolApi, device.kind);
    if (!reader) continue;
    if ((await home.toolApi.canUse(context, reader, { device_id: device.id })) !== null) continue;
    readable.push({ id: device.id, alias: device.alias, kind: device.kind, reader });
  }
  return readable;
}

/** A readable device as a resource: named by its id, described by its alias and kind (text rule applied). */
export function deviceResource(device: ReadableDevice): Resource {
  const alias = safeText(device.alias);
  return {
    uri: `${DEVICE_URI_PREFIX}${encodeURIComponent(device.id)}`,
    name: safeText(device.id),
    title: alias,
    description: `${alias}, a ${safeText(device.kind)}: its identity and last known state (read with ${device.reader}), with as_of.`,
    mimeType: 'application/json',
  };
}

/** The device id a resource URI names, or undefined for any other URI. */
export function deviceIdOf(uri: string): string | undefined {
  if (!uri.startsWith(DEVICE_URI_PREFIX)) return undefined;
  try {
    const id = decodeURIComponent(uri.slice(DEVICE_URI_PREFIX.length));
    return id === '' ? undefined : id;
  } catch {
    return undefined;
  }
}
