import type { Plugin, PromptSection } from '../../core/plugins/plugin.ts';
import type { JsonSchema } from '../../core/tools/json-schema.ts';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
import type { DeviceTool } from '../protocol/frame-schema.ts';
import type { DeviceEntry, DeviceRegistry } from '../registry/device-registry.ts';
import { authorisedDevices, authorizeDeviceCall } from './authorize-device-call.ts';

interface ActionGroup {
  kind: string;
  action: string;
  declarations: DeviceTool[];
  devices: DeviceEntry[];
}

/**
 * The `devices` plugin: one tool per device kind and action (`lamp__set`), with a `device_id`
 * argument, derived at every read from the registry. Authorisation lives in `canUse`.
 */
export function createDevicesPlugin(registry: DeviceRegistry): Plugin {
  return {
    name: 'devices',
    description: 'Serial devices of the home (lamps, sensors, displays, relays), one tool per kind and action.',
    tools: () => actionGroups(registry).map((group) => deviceTool(registry, group)),
    promptSections: (): PromptSection[] => {
      const devices = registry.list();
      if (devices.length === 0) return [];
      const lines = devices.map(
        (device) =>
          `- ${device.id} (${device.kind}${device.alias !== device.id ? `, "${device.alias}"` : ''}): ${device.online ? 'online' : device.status}`,
      );
      return [{ id: 'devices', order: 50, text: `Devices (pass device_id to device tools):\n${lines.join('\n')}` }];
    },
  };
}

/** Groups the authorised devices' declared actions by kind and action, in name order. */
function actionGroups(registry: DeviceRegistry): ActionGroup[] {
  const groups = new Map<string, ActionGroup>();
  for (const entry of registry.entriesView()) {
    for (const tool of entry.tools) {
      const kind = entry.trustedIdentity.kind;
      const id = entry.trustedIdentity.id;
      if (!authorisedDevices(registry, { kind, action: tool.name }).some((device) => device.trustedIdentity.id === id))
        continue;
      const name = `${kind}__${tool.name}`;
      const group = groups.get(name) ?? { kind, action: tool.name, declarations: [], devices: [] };
      group.declarations.push(tool);
      group.devices.push(entry);
      groups.set(name, group);
    }
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
}

function deviceTool(registry: DeviceRegistry, group: ActionGroup): ToolDefinition {
  const { kind, action } = group;
  const first = group.declarations[0]!;
  const ids = group.devices.map((device) => device.trustedIdentity.id);
  const listed = group.devices.map((device) =>
    device.alias && device.alias !== device.trustedIdentity.id
      ? `${device.trustedIdentity.id} ("${device.alias}")`
      : device.trustedIdentity.id,
  );
  return {
    name: `${kind}__${action}`,
    description: `${first.description} Devices: ${listed.join(', ')}.${ids.length === 1 ? ' device_id may be omitted.' : ''}`,
    parameters: withDeviceId(first.parameters, ids),
    // Conservative across devices of one kind: parallel only if every one says so, serial if any does.
    parallelSafe: group.declarations.every((declaration) => declaration.parallelSafe),
    serial: group.declarations.some((declaration) => declaration.serial),
    needsApproval: group.declarations.some((declaration) => declaration.confirm === true),
    canUse: (_context, args) => {
      const decision = authorizeDeviceCall(registry, { kind, action, args });
      return decision.ok ? null : decision.error;
    },
    handler: async (args, context) => {
      // Authorised again here: the handler must never act on a device the gate did not allow.
      const decision = authorizeDeviceCall(registry, { kind, action, args });
      if (!decision.ok) throw decision.error;
      const deviceId = decision.device.trustedIdentity.id;
      const { device_id: _ignored, ...deviceArgs } = args;
      const result = await registry.call(deviceId, action, deviceArgs, { signal: context.signal });
      return { device_id: deviceId, result };
    },
  };
}

function withDeviceId(parameters: JsonSchema, ids: string[]): JsonSchema {
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      device_id: {
        type: 'string',
        enum: ids,
        description: `Which ${ids.length === 1 ? 'device (optional: there is one)' : 'device'}.`,
      },
      ...(parameters.properties ?? {}),
    },
  };
  if (parameters.required !== undefined) schema.required = parameters.required.filter((name) => name !== 'device_id');
  if (parameters.additionalProperties !== undefined) schema.additionalProperties = parameters.additionalProperties;
  return schema;
}
