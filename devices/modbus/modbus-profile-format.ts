import type { ProfileFormat } from '../profiles/profile-format.ts';
import { BUILTIN_MODBUS_PROFILES } from './builtin-modbus-profiles.ts';
import { parseModbusProfile, type ModbusProfile } from './modbus-profile-schema.ts';
import { modbusTools } from './modbus-tools.ts';

/** Modbus RTU register maps: a profile file that says `"protocol": "modbus-rtu"`. */
export const modbusProfileFormat: ProfileFormat<ModbusProfile> = {
  protocol: 'modbus-rtu',
  label: 'a Modbus profile',
  builtins: BUILTIN_MODBUS_PROFILES,
  says: (json) =>
    typeof json === 'object' && json !== null && (json as { protocol?: unknown }).protocol === 'modbus-rtu',
  parse: (json, what) => parseModbusProfile(json, what),
  hintFor: (json) =>
    typeof json === 'object' && json !== null && ('sensors' in json || 'switches' in json)
      ? 'a Modbus profile says "protocol": "modbus-rtu"'
      : undefined,
  needs: 'give the unit too (unit=N, or --unit N)',
  tools: modbusTools,
  withoutConfirm: ({ confirm_switching: _confirm, ...rest }) => rest,
};
