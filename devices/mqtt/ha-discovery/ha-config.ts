import { z } from 'zod';
import { isRecord } from '../../../core/text/is-record.ts';

/**
 * The abbreviations (docs: integrations/mqtt, Supported abbreviations) of the keys this host reads;
 * the others name options it does not use, so they stay as they are and are ignored.
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  avty: 'availability',
  avty_mode: 'availability_mode',
  avty_t: 'availability_topic',
  avty_tpl: 'availability_template',
  cmd_t: 'command_topic',
  cmd_tpl: 'command_template',
  cmps: 'components',
  dev: 'device',
  dev_cla: 'device_class',
  e: 'encoding',
  pl_avail: 'payload_available',
  pl_not_avail: 'payload_not_available',
  pl_off: 'payload_off',
  pl_on: 'payload_on',
  stat_off: 'state_off',
  stat_on: 'state_on',
  stat_t: 'state_topic',
  stat_val_tpl: 'state_value_template',
  t: 'topic',
  uniq_id: 'unique_id',
  unit_of_meas: 'unit_of_measurement',
  val_tpl: 'value_template',
};
const DEVICE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  ids: 'identifiers',
  mf: 'manufacturer',
  mdl: 'model',
  sw: 'sw_version',
  hw: 'hw_version',
  sn: 'serial_number',
  sa: 'suggested_area',
};

const payloadValue = z.union([z.string().max(256), z.number(), z.boolean()]).transform(String);
const topic = z.string().min(1).max(512);
const template = z.string().max(1000);

const availabilitySchema = z.object({
  topic,
  payload_available: payloadValue.default('online'),
  payload_not_available: payloadValue.default('offline'),
  value_template: template.optional(),
});

/** A discovery config of a switch, light or sensor, expanded, as far as this host reads it; unknown keys dropped. */
export const haConfigSchema = z.object({
  name: z.string().max(200).nullish(),
  unique_id: z.string().max(200).optional(),
  command_topic: topic.optional(),
  command_template: template.optional(),
  state_topic: topic.optional(),
  payload_on: payloadValue.default('ON'),
  payload_off: payloadValue.default('OFF'),
  state_on: payloadValue.optional(),
  state_off: payloadValue.optional(),
  value_template: template.optional(),
  state_value_template: template.optional(),
  schema: z.string().max(40).optional(),
  unit_of_measurement: z.string().max(40).nullish(),
  device_class: z.string().max(60).nullish(),
  availability_topic: topic.optional(),
  availability_template: template.optional(),
  payload_available: payloadValue.default('online'),
  payload_not_available: payloadValue.default('offline'),
  availability: z.array(availabilitySchema).max(16).optional(),
  availability_mode: z.enum(['all', 'any', 'latest']).default('latest'),
  components: z.unknown().optional(),
  device: z
    .object({
      name: z.string().max(200).nullish(),
      manufacturer: z.string().max(100).nullish(),
      model: z.string().max(100).nullish(),
      sw_version: z.string().max(100).nullish(),
      /** The area Home Assistant would put it in: offered as its room, for the person to confirm. */
      suggested_area: z.string().max(200).nullish(),
    })
    .optional(),
});
/** A discovery config as read. */
export type HaConfig = z.infer<typeof haConfigSchema>;

/**
 * Pure: a discovery payload's object with its abbreviations written out (also inside `device` and
 * each `availability` entry) and the base topic `~` put in: at the start or end of each value whose
 * key ends with `_topic`, and of each availability `topic`, as the documentation says.
 */
export function expandHaConfig(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const base = typeof raw['~'] === 'string' ? raw['~'] : undefined;
  const expanded = renamed(raw, ABBREVIATIONS);
  for (const [key, value] of Object.entries(expanded))
    if (key.endsWith('_topic') && typeof value === 'string') expanded[key] = withBase(value, base);
  if (isRecord(expanded.device)) expanded.device = renamed(expanded.device, DEVICE_ABBREVIATIONS);
  if (Array.isArray(expanded.availability))
    expanded.availability = expanded.availability.map((entry) => {
      if (!isRecord(entry)) return entry;
      const item = renamed(entry, ABBREVIATIONS);
      if (typeof item.topic === 'string') item.topic = withBase(item.topic, base);
      return item;
    });
  return expanded;
}

function renamed(
  object: Readonly<Record<string, unknown>>,
  names: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    const full = Object.hasOwn(names, key) ? names[key]! : key;
    // A key given in full wins over its abbreviation given as well.
    if (!(full in result) || full === key) result[full] = value;
  }
  return result;
}

function withBase(value: string, base: string | undefined): string {
  if (base === undefined) return value;
  if (value.startsWith('~')) return base + value.slice(1);
  if (value.endsWith('~')) return value.slice(0, -1) + base;
  return value;
}
