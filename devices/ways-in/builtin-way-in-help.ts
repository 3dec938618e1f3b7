// Data only: `--help` reads it without loading a way in (serial ports, a broker client, Modbus).
import type { WayInHelp } from '../links/way-in.ts';
import { MODBUS_WAY_IN_HELP } from '../modbus/modbus-way-in-help.ts';

/**
 * What help says of the options of every way in that has some a person types, in builtin-ways-in.ts's
 * order. A way in with such options adds its help here, beside its entry there.
 */
export const BUILTIN_WAY_IN_HELP: readonly WayInHelp[] = [MODBUS_WAY_IN_HELP];
