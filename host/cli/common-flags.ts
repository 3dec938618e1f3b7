import { z } from 'zod';
import type { ParseArgsConfig } from 'node:util';
import { PROVIDERS, modelChoiceSchema, type ModelChoice } from '../models/model-choice.ts';
import { UsageError } from './cli-io.ts';

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
  /** `--device PATH` or `--device PATH,profile=NAME` for devices that speak plain lines. */
  devices: { path: string; profile?: string }[];
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

function readDeviceFlag(value: string): { path: string; profile?: string } {
  const match = /^(.+),profile=([^,]+)$/.exec(value);
  if (!match) return { path: value };
  return { path: match[1] as string, profile: match[2] as string };
}

function flagOf(key: string): string {
  return { baseUrl: 'base-url', apiKeyEnv: 'api-key-env', scriptFile: 'script' }[key] ?? key;
}
