import { z } from 'zod';
import type { LinkPlacement } from '../links/device-link.ts';
import type { LinkDefaults } from '../links/session-types.ts';
import type { LinkRequest, WayIn, WayInOptions } from '../links/way-in.ts';
import { profileOfFormat, type DeviceProfile } from '../profiles/profile-format.ts';
import { modbusProfileFormat } from './modbus-profile-format.ts';
import { MODBUS_WAY_IN_HELP } from './modbus-way-in-help.ts';
import { refusedToolNames } from '../protocol/check-hello.ts';
import {
  describeBus,
  modbusBusSettingsSchema,
  modbusUnitSchema,
  type ModbusBusSettings,
  type ModbusPlacement,
} from './modbus-bus-settings.ts';
import { ModbusBuses, type ModbusTimings } from './modbus-buses.ts';
import type { ModbusProfile } from './modbus-profile-schema.ts';
import { describeReading, modbusTools } from './modbus-tools.ts';
import type { ModbusUnitLink } from './modbus-unit-link.ts';

const { shape } = modbusBusSettingsSchema;

/** A Modbus unit's options, as typed (`unit=1,baud=9600`) and stored: its unit id and overrides of the profile's bus settings. */
export const modbusOptionsSchema = z
  .strictObject({
    // The description says what a typed value must be; the title is the Add-device form's label.
    unit: modbusUnitSchema.meta({ title: 'Modbus unit (1–247)', description: 'a unit id 1–247' }),
    baud: shape.baud.describe('a baud rate such as 9600').optional(),
    parity: shape.parity.optional(),
    stopbits: shape.stopbits.optional(),
  })
  .meta({ title: 'Modbus RTU' });
export type ModbusOptions = z.infer<typeof modbusOptionsSchema>;

const BUS_KEYS = ['baud', 'parity', 'stopbits'] as const;

/**
 * The Modbus RTU way in: units on a shared bus, one bus per port (`ModbusBuses`), each unit at
 * `PATH#UNIT` on the lane `modbus:PATH`. It claims a request whose profile is a Modbus one, or that
 * names a unit or bus setting. `timings` shorten its waits (tests).
 */
export function modbusWayIn(timings: ModbusTimings = {}): WayIn {
  return {
    kind: 'modbus',
    label: 'Modbus',
    optionsSchema: modbusOptionsSchema,
    profileExample: 'eastron-sdm120',
    probeHint: 'Check the path, the profile, the unit and the bus settings (baud, parity, stop bits).',
    help: MODBUS_WAY_IN_HELP,
    claims: ({ profile, options }) =>
      profile?.protocol === modbusProfileFormat.protocol ||
      Object.keys(modbusOptionsSchema.shape).some((key) => key in options),
    placement: (path, options) => modbusPlacement(path, Number(options.unit)),
    sharingProblem: (options, other) => {
      if (other.unit === options.unit) return ` as the same Modbus unit ${String(options.unit)}`;
      const differs = BUS_KEYS.filter((key) => other[key] !== options[key]);
      return differs.length > 0 ? ` at other bus settings (${differs.join(', ')})` : undefined;
    },
    // Before the seam, `devices list --json` showed a unit's placement as `modbus: {unit, bus}`.
    listedBefore: (options) => {
      const { unit, ...bus } = options;
      return { modbus: { unit, bus } };
    },
    describe: (options) => {
      const bus = modbusBusSettingsSchema.safeParse(pick(options, BUS_KEYS));
      return `unit ${String(options.unit)}${bus.success ? ` at ${describeBus(bus.data)}` : ''}`;
    },
    connect: (defaults: LinkDefaults) => {
      const buses = new ModbusBuses({
        ...(defaults.reconnectIntervalMs !== undefined ? { reconnectIntervalMs: defaults.reconnectIntervalMs } : {}),
        ...timings,
      });
      const open = (request: LinkRequest): ModbusUnitLink => {
        const { profile, placement } = unitRequest(request);
        const refused = refusedToolNames(profile.kind, modbusTools(profile), {
          owner: defaults.toolNameOwner,
          remedy: 'give the profile another kind',
        });
        if (refused !== undefined)
          throw new Error(
            `${profile.model} (unit ${placement.unit} on ${request.path}): profile refused: ${refused} (give the profile another kind)`,
          );
        return buses.unit({ path: request.path, profile, placement });
      };
      return {
        open,
        // Read through the registry's bus, shared with the units already attached: the port is never opened twice.
        probe: async (request, options) => {
          const link = open(request);
          const { profile, placement } = unitRequest(request);
          const bus: ModbusBusSettings = ModbusBuses.settingsFor(profile, placement);
          link.start();
          try {
            const hello = await link.whenOnline(options);
            const reading = link.lastReading;
            return {
              hello,
              options: { unit: placement.unit, ...bus },
              details: [
                `Modbus unit ${placement.unit} at ${describeBus(bus)}, profile ${request.profile?.name} (${profile.name})`,
                ...(Object.keys(reading).length > 0 ? [`reads now: ${describeReading(profile, reading)}`] : []),
              ],
            };
          } finally {
            await link.dispose();
          }
        },
      };
    },
  };
}

/** A Modbus unit's placement: its port, the unit (address `path#unit`), and the bus it shares. */
export function modbusPlacement(path: string, unit: number): LinkPlacement {
  return { path, address: `${path}#${unit}`, sharedLane: `modbus:${path}`, laneName: 'a Modbus bus' };
}

/** The Modbus profile and unit of a request; an error that says what is missing otherwise. */
function unitRequest(request: LinkRequest): { profile: ModbusProfile; placement: ModbusPlacement } {
  const profile: DeviceProfile | undefined = request.profile;
  if (profile === undefined)
    throw new Error('unit, baud, parity and stopbits need a Modbus profile (profile=eastron-sdm120)');
  const modbus = profileOfFormat(modbusProfileFormat, profile);
  if (modbus === undefined)
    throw new Error(
      `unit, baud, parity and stopbits apply to Modbus profiles; ${profile.name} speaks ${profile.protocol}`,
    );
  if (request.options.unit === undefined)
    throw new Error(`${profile.name} is a Modbus profile: give the unit id of the device (--unit N, 1–247)`);
  const options = modbusOptionsSchema.safeParse(request.options);
  if (!options.success)
    throw new Error(`${profile.name}: Modbus options: ${z.prettifyError(options.error).replaceAll('\n', ' ')}`);
  const { unit, ...bus } = options.data;
  return { profile: modbus, placement: { unit, bus } };
}

function pick(options: WayInOptions, keys: readonly string[]): WayInOptions {
  return Object.fromEntries(keys.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
}
