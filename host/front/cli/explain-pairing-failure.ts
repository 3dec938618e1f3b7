import type { z } from 'zod';
import { BUILTIN_PROFILES } from '../../../devices/profiles/resolve-profile.ts';
import { BUILTIN_PROFILE_NAMES, resolveDeviceProfile } from '../../../devices/ways-in/builtin-profile-formats.ts';
import { deviceWaysIn } from '../../devices/create-device-layer.ts';
import { listAnnouncedPorts } from '../../../devices/simulator/simulator-index.ts';
import { explainHeldPortNow } from '../../devices/held-port.ts';

/** What a device that is no Home Agent device answers: our JSON parser's words for its first line. */
const NOT_OUR_PROTOCOL = /is not valid JSON/;

/**
 * What `devices pair PATH` says when pairing failed: the process that holds the port (see
 * explainHeldPort); for a device that answered in something other than our JSON protocol, that it
 * needs a profile, naming the one a running simulator announced for it or the builtin line
 * profiles; else the failure as it was.
 */
export async function explainPairingFailure(options: {
  path: string;
  error: unknown;
  profile?: string;
}): Promise<string> {
  const message = (options.error as Error)?.message ?? String(options.error);
  const held = await explainHeldPortNow({ text: message, device: options.path });
  if (held !== undefined) return held;
  if (options.profile !== undefined || !NOT_OUR_PROTOCOL.test(message)) return message;
  const announced = (await listAnnouncedPorts()).find((port) => port.path === options.path)?.profile;
  const reply = /"([^"]*)"/.exec(message)?.[1];
  const said = reply ? ` (it answered "${reply}…")` : '';
  if (announced !== undefined)
    return `${options.path} does not speak Home Agent's JSON protocol${said}: it is a simulated board that speaks plain lines. Pair it with: home-agent devices pair ${options.path} --profile ${announced}`;
  const lines = Object.keys(BUILTIN_PROFILES).join('|');
  return `${options.path} does not speak Home Agent's JSON protocol${said}. Pair a board that speaks plain lines with its profile (--profile ${lines}, or --profile FILE)${otherWaysIn()}.`;
}

/** `, a DEVICE with --profile NAME|NAME --KEY V`: each way in with options, its built-in profiles and what it needs. */
function otherWaysIn(): string {
  return deviceWaysIn()
    .flatMap((way) => {
      if (way.help === undefined) return [];
      const names = BUILTIN_PROFILE_NAMES.filter((name) =>
        way.claims({ profile: resolveDeviceProfile(name), options: {} }),
      );
      const needed = Object.entries(way.optionsSchema.shape)
        .filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success)
        .map(([key]) => ` --${key} ${way.help?.options[key]?.value ?? 'VALUE'}`);
      return [`, a ${way.label} device with --profile ${names.join('|')}${needed.join('')}`];
    })
    .join('');
}
