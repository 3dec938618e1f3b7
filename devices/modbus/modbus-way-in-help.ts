import type { WayInHelp } from '../links/way-in.ts';

/** What `--help` says of the Modbus way in's options (data only: help loads no way in). */
export const MODBUS_WAY_IN_HELP: WayInHelp = {
  pairUsage: '--profile MODBUS-PROFILE --unit N [--baud B] [--parity none|even|odd] [--stopbits 1|2]',
  summary: 'unit and bus settings for Modbus',
  options: {
    unit: { value: 'N', text: 'the Modbus unit id; with --baud B, --parity P, --stopbits S for its bus.' },
    baud: { value: 'B', text: 'the Modbus bus speed.' },
    parity: { value: 'P', text: 'the Modbus bus parity (none, even, odd).' },
    stopbits: { value: 'S', text: 'the Modbus bus stop bits (1 or 2).' },
  },
};
