import { z } from 'zod';
import { ownPortPlacement } from '../links/device-link.ts';
import type { LinkDefaults } from '../links/session-types.ts';
import type { LinkRequest, WayIn } from '../links/way-in.ts';
import { probeDevice } from './probe-device.ts';
import { profileConnector } from '../profiles/profile-connector.ts';
import { lineProfileFormat } from '../profiles/line-profile-format.ts';
import type { ProfileReader } from '../profiles/resolve-profile.ts';
import type { TransportConnector } from '../transport/line-transport.ts';
import { serialConnector } from '../transport/serial-line-transport.ts';
import { DeviceSession } from '../session/device-session.ts';

/**
 * The serial way in: a device on a port of its own that speaks the Home Agent protocol, or plain
 * text lines through a line profile. It claims every request no other way in claims before it
 * takes one whose profile speaks something else. `connectorFor` replaces the serial port (tests);
 * `lineProfileOf` reads a request's profile as lines (the list of ways in gives it, knowing every format).
 */
export function serialWayIn(options: {
  connectorFor?: (path: string) => TransportConnector;
  lineProfileOf: ProfileReader['lineProfileOf'];
}): WayIn {
  return {
    kind: 'serial',
    label: 'serial',
    optionsSchema: z.strictObject({}),
    probeHint: 'Check the path and the profile (a device that speaks plain lines needs one, e.g. at-relay-4).',
    claims: ({ profile }) => profile === undefined || profile.protocol === lineProfileFormat.protocol,
    placement: (path) => ownPortPlacement(path),
    // A port of its own: no other device is paired beside it.
    sharingProblem: () => '',
    describe: () => '',
    connect: (defaults: LinkDefaults) => {
      const connectorOf = (request: LinkRequest): TransportConnector => {
        const plain =
          options.connectorFor?.(request.path) ??
          serialConnector({ path: request.path, pollIntervalMs: defaults.reconnectIntervalMs });
        const lines = options.lineProfileOf(request.profile);
        return lines === undefined ? plain : profileConnector(plain, lines);
      };
      return {
        open: (request) => new DeviceSession({ ...defaults, connector: connectorOf(request) }),
        // The port is opened just long enough for its hello: whoever holds it lets go first.
        probe: async (request, probe) => ({
          hello: await probeDevice({ connector: connectorOf(request), ...probe }),
          options: {},
          details: [],
        }),
        openConnector: (connector) => new DeviceSession({ ...defaults, connector }),
      };
    },
  };
}
