import { z } from 'zod';

/** One capability in a device's `definition.exposes` (Zigbee2MQTT docs, guide/usage/exposes.md); unknown keys dropped. */
export interface Z2mExpose {
  type: string;
  name?: string | undefined;
  property?: string | undefined;
  /** Bit 1: in the published state; bit 2: settable with `/set`; bit 4: readable with `/get`. */
  access?: number | undefined;
  value_on?: unknown;
  value_off?: unknown;
  unit?: string | undefined;
  endpoint?: string | undefined;
  features?: Z2mExpose[] | undefined;
}

const MAX_EXPOSES = 200;

const exposeSchema: z.ZodType<Z2mExpose> = z.lazy(() =>
  z.object({
    type: z.string().max(40),
    name: z.string().max(100).optional(),
    property: z.string().max(100).optional(),
    access: z.number().int().min(0).max(7).optional(),
    value_on: z.union([z.string().max(100), z.number(), z.boolean()]).optional(),
    value_off: z.union([z.string().max(100), z.number(), z.boolean()]).optional(),
    unit: z.string().max(40).optional(),
    endpoint: z.string().max(40).optional(),
    features: z.array(exposeSchema).max(MAX_EXPOSES).optional(),
  }),
);

/** One entry of the retained `zigbee2mqtt/bridge/devices` list (docs: guide/usage/mqtt_topics_and_messages.md). */
export const z2mBridgeDeviceSchema = z.object({
  ieee_address: z.string().max(40),
  type: z.string().max(40),
  friendly_name: z.string().min(1).max(200),
  supported: z.boolean().optional(),
  software_build_id: z.string().max(60).nullish(),
  interview_completed: z.boolean().optional(),
  definition: z
    .object({
      model: z.string().max(100),
      vendor: z.string().max(100),
      description: z.string().max(300).optional(),
      exposes: z.array(exposeSchema).max(MAX_EXPOSES),
    })
    .nullable(),
});
/** A device as Zigbee2MQTT lists it. */
export type Z2mBridgeDevice = z.infer<typeof z2mBridgeDeviceSchema>;

/**
 * The devices of one `bridge/devices` message: each entry that has the documented shape, and why
 * the others were left out (an entry the list holds is read on its own, so one odd device loses no other).
 */
export function readBridgeDevices(list: unknown): { devices: Z2mBridgeDevice[]; skipped: string[] } {
  if (!Array.isArray(list)) return { devices: [], skipped: ['bridge/devices is not a JSON list'] };
  const devices: Z2mBridgeDevice[] = [];
  const skipped: string[] = [];
  list.forEach((entry, index) => {
    const parsed = z2mBridgeDeviceSchema.safeParse(entry);
    if (parsed.success) devices.push(parsed.data);
    else {
      const issue = parsed.error.issues[0];
      skipped.push(`entry ${index}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'not a device'}`);
    }
  });
  return { devices, skipped };
}
