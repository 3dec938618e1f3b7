import { z } from 'zod';
import type { WayIn } from '../../devices/links/way-in.ts';
import type { InProcessDevices } from '../../devices/simulator/start-in-process-devices.ts';
import { DeviceSession } from '../../devices/session/device-session.ts';

/**
 * A third way in, real but not shipped: the devices of an in-process simulator, all at the path
 * `sim` and told apart by the option `device=ID` (as the units of one bus are by `unit=N`). It shows
 * that the registry, pairing, the store and the option reader take a way in they have never heard of.
 */
export function inProcessWayIn(sim: InProcessDevices): WayIn {
  const ids = sim.devices.map((device) => device.id) as [string, ...string[]];
  const connectorOf = (id: unknown) => {
    const device = sim.devices.find((candidate) => candidate.id === id);
    if (device === undefined) throw new Error(`no simulated device ${String(id)}`);
    return device.connector;
  };
  return {
    kind: 'in-process',
    label: 'in-process',
    optionsSchema: z.strictObject({ device: z.enum(ids) }),
    claims: ({ options }) => 'device' in options,
    placement: (path, options) => ({
      path,
      address: `${path}:${String(options.device)}`,
      sharedLane: `in-process:${path}`,
      laneName: 'the in-process simulator',
    }),
    sharingProblem: (options, other) =>
      options.device === other.device ? ` as the same simulated device ${String(options.device)}` : undefined,
    describe: (options) => `device ${String(options.device)}`,
    connect: (defaults) => ({
      open: (request) => new DeviceSession({ ...defaults, connector: connectorOf(request.options.device) }),
      probe: async (request, options) => {
        const session = new DeviceSession({ ...defaults, connector: connectorOf(request.options.device) });
        session.start();
        try {
          return { hello: await session.whenOnline(options), options: request.options, details: [] };
        } finally {
          await session.dispose();
        }
      },
    }),
  };
}
