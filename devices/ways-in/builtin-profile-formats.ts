import { modbusProfileFormat } from '../modbus/modbus-profile-format.ts';
import { lineProfileFormat } from '../profiles/line-profile-format.ts';
import type { ProfileFormat } from '../profiles/profile-format.ts';
import { profileReader } from '../profiles/resolve-profile.ts';

/**
 * Every profile format the ways in read, in the order a profile file is tried: a format its JSON
 * says first, line profiles (which say none) last. A way in that reads profiles adds its format here.
 */
export const BUILTIN_PROFILE_FORMATS: readonly ProfileFormat[] = [modbusProfileFormat, lineProfileFormat];

/** Profiles read in these formats: by builtin name or from a file, compared, checked for lines. */
export const { BUILTIN_PROFILE_NAMES, formatOf, resolveDeviceProfile, parseProfileText, lineProfileOf } =
  profileReader(BUILTIN_PROFILE_FORMATS);
