import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../../../core/text/is-record.ts';
import { safeLines, safeText } from '../../../core/text/safe-text.ts';
import { renderOutcomeForModel } from '../../../core/tools/tool-result.ts';
import type { ToolCallRun } from '../../../core/tools/tool-call-run.ts';
import type { AuthorizationContext } from '../../../core/tools/tool-definition.ts';
import type { ToolApi } from '../../../core/tools/tool-api.ts';
import { deviceIdOf, deviceResource, readableDevices, type DeviceList } from './device-resources.ts';

/** The spec's error for a resource that does not exist (or is not this session's to read). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * The home's devices as one session's resources: each device it may read is listed; a read runs its
 * kind's read tool as a journaled one-call turn of the session (`readDevice`: the CanUse gate, the
 * text rule) and answers its identity and state with `as_of`; subscriptions are kept by URI, and an
 * unlisted URI is answered `{}` and never told of. `changed` says a device's state may have changed
 * (undefined: any, and maybe the list too).
 */
export class ServedResources {
  private readonly subscribed = new Set<string>();
  private listed: string | undefined;

  constructor(
    private readonly server: Server,
    private readonly home: { toolApi: ToolApi; handlers: DeviceList },
    private readonly session: {
      context: () => AuthorizationContext;
      readDevice: (reader: string, deviceId: string, signal: AbortSignal) => Promise<ToolCallRun>;
    },
  ) {
    server.setRequestHandler(ListResourcesRequestSchema, async () => {
      const resources = (await this.readable()).map(deviceResource);
      this.listed = JSON.stringify(resources);
      return { resources };
    });
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      this.read(request.params.uri, extra.signal),
    );
    server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      const uri = request.params.uri;
      const id = deviceIdOf(uri);
      if (id !== undefined && (await this.readable()).some((device) => device.id === id)) this.subscribed.add(uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      this.subscribed.delete(request.params.uri);
      return {};
    });
  }

  /** A device's state may have changed (undefined: any device, and the list may have too). */
  changed(deviceId: string | undefined): void {
    for (const uri of this.subscribed)
      if (deviceId === undefined || deviceIdOf(uri) === deviceId)
        this.server.sendResourceUpdated({ uri }).catch(() => undefined);
    if (deviceId === undefined) void this.announceListChange();
  }

  /** Tells the client its list changed (pairings, grants, plugins) once it has listed. */
  async announceListChange(): Promise<void> {
    if (this.listed === undefined) return;
    const now = JSON.stringify((await this.readable()).map(deviceResource));
    if (now === this.listed) return;
    this.listed = now;
    this.server.sendResourceListChanged().catch(() => undefined);
  }

  private readable() {
    return readableDevices(this.home, this.session.context());
  }

  private async read(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    const id = deviceIdOf(uri);
    const device = id === undefined ? undefined : (await this.readable()).find((item) => item.id === id);
    if (!device)
      throw new McpError(
        RESOURCE_NOT_FOUND,
        `No resource ${safeText(uri.slice(0, 200))}: list the resources to see them.`,
      );
    const run = await this.session.readDevice(device.reader, device.id, signal);
    if (!run.outcome.ok)
      throw new McpError(RESOURCE_NOT_FOUND, safeLines(renderOutcomeForModel(run.outcome, run.callOutcome)));
    const value = run.outcome.value;
    const state = isRecord(value) && 'result' in value ? value.result : value;
    const text = JSON.stringify({
      device_id: device.id,
      alias: device.alias,
      kind: device.kind,
      state,
      as_of: new Date().toISOString(),
    });
    return { contents: [{ uri, mimeType: 'application/json', text: safeText(text) }] };
  }
}
