import type { Plugin, PromptSection } from '../../core/plugins/plugin.ts';
import type { JsonSchema } from '../../core/tools/json-schema.ts';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
import type { DeviceTool } from '../protocol/frame-schema.ts';
import type { DeviceEntry, DeviceRegistry } from '../registry/device-registry.ts';
import { authorisedDevices, authorizeDeviceCall } from './authorize-device-call.ts';
import { checkDeviceArguments } from './check-device-arguments.ts';
import { mergeParameterSchemas, sameSchema } from './merge-parameter-schemas.ts';
import { deviceToolName } from '../protocol/device-tool-name.ts';
import { safeText } from '../../core/text/safe-text.ts';
import { DEVICES_HEADING, deviceLine } from '../../core/prompt/devices-section.ts';
import {
  LIST_DEVICES_TOOL,
  roomLines,
  roomsFirstSection,
  type PromptDevicesMode,
  type RoomedDevice,
} from '../../core/prompt/rooms-section.ts';
import { listDevicesTool } from './list-devices-tool.ts';

interface ActionGroup {
  kind: string;
  action: string;
  declarations: DeviceTool[];
  devices: DeviceEntry[];
}

/**
 * The `devices` plugin: one tool per device kind and action (`lamp__set`), with a `device_id`
 * argument, derived at every read from the registry. `canUse` authorises the addressed device and
 * checks the arguments against that device's own declaration (devices of one kind may differ: relay
 * channels 1–4 beside 1–8), so nobody is asked to approve a call the device cannot take.
 */
export function createDevicesPlugin(registry: DeviceRegistry, options: DevicesPluginOptions = {}): Plugin {
  const roomsFirst = (): boolean => options.promptDevices?.() === 'rooms-first';
  const listed = (): RoomedDevice[] => {
    const rooms = options.rooms?.() ?? new Map<string, string>();
    return registry.list().map((device) => {
      const room = rooms.get(device.id);
      return {
        id: device.id,
        kind: device.kind,
        ...(device.alias !== device.id ? { alias: safeText(device.alias) } : {}),
        state: device.online ? 'online' : device.status,
        notGranted: notGranted(registry, device.id),
        ...(room !== undefined ? { room: safeText(room) } : {}),
      };
    });
  };
  return {
    name: 'devices',
    description: 'Serial devices of the home (lamps, sensors, displays, relays), one tool per kind and action.',
    tools: () => {
      const first = roomsFirst();
      const tools = actionGroups(registry).map((group) => deviceTool(registry, group, first));
      return first && registry.list().length > 0 ? [...tools, listDevicesTool(listed)] : tools;
    },
    promptSections: (): PromptSection[] => {
      const devices = listed();
      if (devices.length === 0) return [];
      if (roomsFirst()) return [{ id: 'devices', order: 50, text: roomsFirstSection(devices) }];
      const rooms = roomLines(devices);
      const text = [DEVICES_HEADING, ...devices.map(deviceLine), ...(rooms !== undefined ? [rooms] : [])].join('\n');
      return [{ id: 'devices', order: 50, text }];
    },
  };
}

/** What the devices plugin reads besides its registry. */
export interface DevicesPluginOptions {
  /** Each paired device's room, by id (the store's; absent: no device has one). */
  rooms?: () => ReadonlyMap<string, string>;
  /** How the prompt lists the devices (the setting promptDevices; absent: all). */
  promptDevices?: () => PromptDevicesMode;
}

/**
 * The actions a trusted device declares that the person has not granted (none for a device not
 * trusted): the model can tell the person which grant to give instead of that no such device exists.
 */
function notGranted(registry: DeviceRegistry, id: string): string[] {
  const entry = registry.get(id);
  if (entry === undefined || !entry.trusted) return [];
  const kind = entry.trustedIdentity.kind;
  return entry.tools
    .map((tool) => tool.name)
    .filter(
      (action) => !authorisedDevices(registry, { kind, action }).some((device) => device.trustedIdentity.id === id),
    )
    .sort();
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
      const name = deviceToolName(kind, tool.name);
      const group = groups.get(name) ?? { kind, action: tool.name, declarations: [], devices: [] };
      group.declarations.push(tool);
      group.devices.push(entry);
      groups.set(name, group);
    }
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
}

function deviceTool(registry: DeviceRegistry, group: ActionGroup, roomsFirst = false): ToolDefinition {
  const { kind, action } = group;
  const first = group.declarations[0]!;
  const ids = group.devices.map((device) => device.trustedIdentity.id);
  // A name is one line of the description: the person's words, never the model's instructions.
  const listed = group.devices.map((device) =>
    device.alias && device.alias !== device.trustedIdentity.id
      ? `${device.trustedIdentity.id} ("${safeText(device.alias)}")`
      : device.trustedIdentity.id,
  );
  return {
    name: deviceToolName(kind, action),
    // Rooms first: the devices are read by room, so the description names how many, not which.
    description: `${first.description} Devices: ${roomsFirst ? `${ids.length} (${LIST_DEVICES_TOOL} lists a room's)` : listed.join(', ')}.${ids.length === 1 ? ' device_id may be omitted.' : ''}${differences(group)}`,
    parameters: withDeviceId(
      mergeParameterSchemas(group.declarations.map((declaration) => declaration.parameters)),
      ids,
    ),
    // Conservative across devices of one kind: parallel only if every one says so, serial if any does.
    parallelSafe: group.declarations.every((declaration) => declaration.parallelSafe),
    serial: group.declarations.some((declaration) => declaration.serial),
    needsApproval: group.declarations.some((declaration) => declaration.confirm === true),
    // Read-only only if every device of the kind says its action only reads.
    readOnly: group.declarations.every((declaration) => declaration.readOnly === true),
    // The session says when the request reaches the port, so a call stopped before that is known not sent.
    reportsDelivery: true,
    canUse: (_context, args) => {
      const decision = authorizeDeviceCall(registry, { kind, action, args });
      if (!decision.ok) return decision.error;
      const checked = checkDeviceArguments({ device: decision.device, kind, action, args });
      return checked.ok ? null : checked.error;
    },
    handler: async (args, context) => {
      // Authorised and checked again here: the handler must never act on a device the gate did not allow.
      const decision = authorizeDeviceCall(registry, { kind, action, args });
      if (!decision.ok) throw decision.error;
      const checked = checkDeviceArguments({ device: decision.device, kind, action, args });
      if (!checked.ok) throw checked.error;
      const deviceId = decision.device.trustedIdentity.id;
      const result = await registry.call(deviceId, action, checked.args, {
        signal: context.signal,
        onSent: () => context.markSent(),
      });
      return { device_id: deviceId, result };
    },
  };
}

/** ` Arguments differ per device: relay-1: channel 1–4; relay-8-…: channel 1–8.` when declarations differ, else ''. */
function differences(group: ActionGroup): string {
  const schemas = group.declarations.map((declaration) => declaration.parameters);
  if (schemas.every((schema) => sameSchema(schema, schemas[0]!))) return '';
  const names = [...new Set(schemas.flatMap((schema) => Object.keys(schema.properties ?? {})))].filter((name) => {
    const own = schemas.map((schema) => schema.properties?.[name]);
    return !own.every((property) => property !== undefined && sameSchema(property, own[0]!));
  });
  const lines = group.devices.map((device, index) => {
    const properties = schemas[index]!.properties ?? {};
    const described = names.map((name) => (properties[name] ? describeProperty(name, properties[name]) : `no ${name}`));
    return `${device.trustedIdentity.id}: ${described.join(', ')}`;
  });
  return ` Arguments differ per device: ${lines.join('; ')}.`;
}

function describeProperty(name: string, schema: JsonSchema): string {
  if (schema.enum) return `${name} one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    return `${name} ${schema.minimum}–${schema.maximum}`;
  if (schema.minimum !== undefined) return `${name} ≥ ${schema.minimum}`;
  if (schema.maximum !== undefined) return `${name} ≤ ${schema.maximum}`;
  return `${name} (${schema.type ?? 'any'})`;
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
