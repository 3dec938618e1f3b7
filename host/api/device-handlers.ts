import { ApiError } from './api-error.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';
import { DeviceAdminError, type DeviceAdmin } from '../devices/device-admin.ts';
import { deadlineSignal } from '../../core/text/deadline-signal.ts';

type DeviceMethod =
  | 'devices/list'
  | 'devices/scan'
  | 'devices/probe'
  | 'devices/pair'
  | 'devices/grant'
  | 'devices/revoke'
  | 'devices/rename'
  | 'devices/room'
  | 'devices/forget'
  | 'devices/trust';

/** The time limit of a scan or a probe seen from the API: the host answers or says why. */
const DEVICE_CALL_TIMEOUT_MS = 15_000;

/**
 * The Devices tab's methods: list, scan, probe, pair, grant, revoke, rename, room, forget, trust. Each
 * change is written to the store and applied to the running devices before it answers; the
 * registry's own notice (`devices/changed`) tells every other front end.
 */
export function deviceHandlers(parts: HostParts): ApiHandlersOf<DeviceMethod> {
  const admin = (): DeviceAdmin => {
    const found = parts.devices?.admin;
    if (!found) throw new ApiError(400, 'this host keeps no paired devices (it runs without a data folder for them)');
    return found;
  };
  return {
    'devices/list': () => ({ devices: parts.devices?.list() ?? [] }),
    'devices/scan': (input) => refusals(() => admin().scan(input, deadlineSignal(DEVICE_CALL_TIMEOUT_MS))),
    'devices/probe': (input) => refusals(() => admin().probe(input, deadlineSignal(DEVICE_CALL_TIMEOUT_MS))),
    'devices/pair': (input) => refusals(() => admin().pair(input, deadlineSignal(DEVICE_CALL_TIMEOUT_MS))),
    'devices/grant': (input) => refusals(() => admin().grant(input)),
    'devices/revoke': (input) => refusals(() => admin().revoke(input)),
    'devices/rename': (input) => refusals(() => admin().rename(input)),
    'devices/room': (input) => refusals(() => admin().room(input)),
    'devices/forget': (input) => refusals(() => admin().forget(input)),
    'devices/trust': (input) => refusals(() => admin().trust(input)),
  };
}

/** Runs an operation, turning its refusals into API failures with their status. */
async function refusals<T>(operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof DeviceAdminError) throw new ApiError(error.status, error.message);
    throw error;
  }
}
