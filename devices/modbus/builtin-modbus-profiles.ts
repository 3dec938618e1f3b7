import eastronSdm120 from './profiles/eastron-sdm120.json' with { type: 'json' };
import relay8 from './profiles/relay-8.json' with { type: 'json' };
import { parseModbusProfile, type ModbusProfile } from './modbus-profile-schema.ts';

/** The Modbus profiles that ship with Home Agent, by the name a person types; each JSON file is validated like any other. */
export const BUILTIN_MODBUS_PROFILES: Readonly<Record<string, ModbusProfile>> = {
  'eastron-sdm120': parseModbusProfile(eastronSdm120, 'the builtin profile eastron-sdm120'),
  'relay-8': parseModbusProfile(relay8, 'the builtin profile relay-8'),
};
