import { z } from 'zod';

const deviceId = z.string().min(1).max(200);
const action = z.string().min(1).max(100);
/** A PIN as typed: its rule (4 to 12 digits) is checked by the host, which says what was wrong. */
const typedPin = z.string().max(100);

/** What changing the PIN did: `changed`, or a message saying why not (a wrong current PIN is counted). */
const pinChange = z.object({ changed: z.boolean(), message: z.string().optional() });

/** One action of a device and whether calls of it need the approval PIN (`marked`: by the person, not by its kind). */
export const pinActionSchema = z.object({ name: z.string(), needsPin: z.boolean(), marked: z.boolean() });
export type PinAction = z.infer<typeof pinActionSchema>;

/**
 * The approval PIN part of the API contract (spread into `apiContract`): whether one is set, setting,
 * changing and removing it (each but the first given the current PIN), and which device actions need
 * it. The PIN itself is never in an output; a forgotten one is reset at the machine, never here.
 */
export const approvalPinContract = {
  'pin/status': { input: z.object({}), output: z.object({ set: z.boolean() }) },
  /** Sets the Approval PIN, or changes it given `currentPin`. */
  'pin/set': { input: z.object({ pin: typedPin, currentPin: typedPin.optional() }), output: pinChange },
  /** Removes the Approval PIN given the current one: calls that need it are refused until one is set. */
  'pin/remove': { input: z.object({ currentPin: typedPin }), output: pinChange },
  /** Each action of a paired device, and whether it needs the PIN. 404: no such device. */
  'devices/pin-actions': {
    input: z.object({ deviceId }),
    output: z.object({ actions: z.array(pinActionSchema) }),
  },
  /** Marks an action of a device as needing the PIN (`needsPin: true`) or not; applies to the next call. 404: no such device or action. */
  'devices/pin': {
    input: z.object({ deviceId, action, needsPin: z.boolean() }),
    output: z.object({ actions: z.array(pinActionSchema) }),
  },
} as const;
