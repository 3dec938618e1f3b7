import { z } from 'zod';
import type { ParseArgsConfig } from 'node:util';
import { PROVIDERS, modelChoiceSchema, type ModelChoice } from '../models/model-choice.ts';
import { UsageError } from './cli-io.ts';
import { readModbusOptions } from '../../devices/modbus/modbus-bus-settings.ts';
import type { DeviceToAttach } from '../app/attach-devices.ts';

/** Flags that `ask` and `serve` share: the model, the data folder, the devices, the tool order. */
export const commonFlagOptions = {
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  script: { type: 'string' },
  'data-dir': { type: 'string' },
  sim: { type: 'boolean' },
  'sim-latency-ms': { type: 'string' },
  device: { type: 'string', multiple: true },
  'tool-order': { type: 'string' },
  'max-steps': { type: 'string' },
  'concurrency-cap': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export interface CommonFlags {
  modelChoice: ModelChoice;
  dataDir?: string;
  sim: boolean;
  simLatencyMs?: number;
  /** `--device PATH[,profile=NAME|FILE][,unit=N][,baud=B][,parity=P][,stopbits=S]`, options in any order. */
  devices: DeviceToAttach[];
  toolOrder?: string[];
  maxSteps?: number;
  concurrencyCap?: number;
}

const toolOrderSchema = z.array(z.string().min(1));

function integerFlag(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min)
    throw new UsageError(`--${name} must be a whole number ≥ ${min}, got '${value}'`);
  return number;
}

/** Validates the shared flags; a bad value is a UsageError that names the flag. */
export function readCommonFlags(values: Record<string, string | boolean | string[] | undefined>): CommonFlags {
  const provider = values.provider as string | undefined;
  if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}, got '${provider}'`);
  }
  const choice = modelChoiceSchema.safeParse({
    provider,
    model: values.model,
    baseUrl: values['base-url'],
    apiKeyEnv: values['api-key-env'],
    scriptFile: values.script,
  });
  if (!choice.success)
    throw new UsageError(
      choice.error.issues.map((issue) => `--${flagOf(String(issue.path[0]))}: ${issue.message}`).join('; '),
    );
  let toolOrder: string[] | undefined;
  if (typeof values['tool-order'] === 'string') {
    let json: unknown;
    try {
      json = JSON.parse(values['tool-order']);
    } catch {
      throw new UsageError(`--tool-order must be a JSON list of tool names, e.g. '["lamp__set","<unlisted-tools>"]'`);
    }
    const parsed = toolOrderSchema.safeParse(json);
    if (!parsed.success)
      throw new UsageError(`--tool-order must be a JSON list of tool names, e.g. '["lamp__set","<unlisted-tools>"]'`);
    toolOrder = parsed.data;
  }
  const flags: CommonFlags = {
    modelChoice: choice.data,
    sim: values.sim === true,
    devices: ((values.device as string[] | undefined) ?? []).map(readDeviceFlag),
  };
  if (typeof values['data-dir'] === 'string') flags.dataDir = values['data-dir'];
  const latency = integerFlag('sim-latency-ms', values['sim-latency-ms'] as string | undefined, 0);
  if (latency !== undefined) flags.simLatencyMs = latency;
  const maxSteps = integerFlag('max-steps', values['max-steps'] as string | undefined, 1);
  if (maxSteps !== undefined) flags.maxSteps = maxSteps;
  const concurrencyCap = integerFlag('concurrency-cap', values['concurrency-cap'] as string | undefined, 1);
  if (concurrencyCap !== undefined) flags.concurrencyCap = concurrencyCap;
  if (toolOrder !== undefined) flags.toolOrder = toolOrder;
  return flags;
}

const DEVICE_OPTIONS = ['profile', 'unit', 'baud', 'parity', 'stopbits'] as const;
type DeviceOption = (typeof DEVICE_OPTIONS)[number];

/**
 * `PATH,k=v,…`: options come last, in any order (`profile`, and for a Modbus unit `unit`, `baud`,
 * `parity`, `stopbits`); everything before them is the path, commas included.
 */
function readDeviceFlag(value: string): DeviceToAttach {
  const parts = value.split(',');
  const options = new Map<DeviceOption, string>();
  while (parts.length > 1 && /^[a-z]+=/.test(parts[parts.length - 1]!)) {
    const part = parts.pop()!;
    const equals = part.indexOf('=');
    const key = part.slice(0, equals);
    const text = part.slice(equals + 1);
    if (!(DEVICE_OPTIONS as readonly string[]).includes(key))
      throw new UsageError(`--device ${value}: unknown option '${key}' (options: ${DEVICE_OPTIONS.join(', ')})`);
    if (options.has(key as DeviceOption)) throw new UsageError(`--device ${value}: '${key}' is given twice`);
    if (text === '') throw new UsageError(`--device ${value}: '${key}' has no value`);
    options.set(key as DeviceOption, text);
  }
  const path = parts.join(',');
  if (path === '') throw new UsageError(`--device ${value}: the port path is missing (--device /dev/ttyUSB0,…)`);
  const device: DeviceToAttach = { path };
  const profile = options.get('profile');
  if (profile !== undefined) device.profile = profile;
  const modbusGiven = DEVICE_OPTIONS.some((key) => key !== 'profile' && options.has(key));
  if (!modbusGiven) return device;
  if (profile === undefined)
    throw new UsageError(
      `--device ${value}: unit, baud, parity and stopbits need a Modbus profile (profile=eastron-sdm120)`,
    );
  try {
    const modbus = readModbusOptions({
      unit: options.get('unit'),
      baud: options.get('baud'),
      parity: options.get('parity'),
      stopbits: options.get('stopbits'),
    });
    device.modbus = modbus;
  } catch (error) {
    throw new UsageError(`--device ${value}: ${(error as Error).message}`);
  }
  return device;
}

function flagOf(key: string): string {
  return { baseUrl: 'base-url', apiKeyEnv: 'api-key-env', scriptFile: 'script' }[key] ?? key;
}
