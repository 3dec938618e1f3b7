import { modbusProfileFormat } from '../modbus/modbus-profile-format.ts';
import { lineProfileFormat } from '../profiles/line-profile-format.ts';
import type { ProfileFormat } from '../profiles/profile-format.ts';

/**
 * Every profile format the ways in read, in the order a profile file is tried: a format its JSON
 * says first, line profiles (which say none) last. A way in that reads profiles adds its format here.
 */
export const BUILTIN_PROFILE_FORMATS: readonly ProfileFormat[] = [modbusProfileFormat, lineProfileFormat];
