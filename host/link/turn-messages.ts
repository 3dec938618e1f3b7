import { z } from 'zod';
import { apiContract } from '../contract/api-contract.ts';

/** Where the tool's name goes in a refusal a routed command line sends with its turn. */
export const TOOL_NAME_SLOT = '{tool}';

/** The model a routed turn asks for, over the host's settings: a command line's model flags. */
const turnModelSchema = z.object({
  provider: z.string().max(100).optional(),
  model: z.string().max(500).optional(),
  baseUrl: z.string().max(2000).optional(),
  apiKeyEnv: z.string().max(200).optional(),
  /** The key itself, read from the command line's own environment (the host's may not have it). */
  apiKey: z.string().max(10_000).optional(),
  /** An absolute path: the scripted model's replies. */
  scriptFile: z.string().max(4096).optional(),
});
export type TurnModel = z.infer<typeof turnModelSchema>;

/** The first line after the welcome on the `turn` door: one turn to run, and how its questions are answered. */
export const turnRequestSchema = z.object({
  start: z.object({
    conversationId: apiContract['conversations/events'].input.shape.conversationId,
    text: z.string().min(1).max(100_000),
    model: turnModelSchema.optional(),
    /** `ask`: the person answers (on the terminal that sent it, or any window); `allow`: all of this turn's; `deny`: none can be asked. */
    policy: z.enum(['ask', 'allow', 'deny']),
    denial: z.object({ detail: z.string().max(2000), hint: z.string().max(2000).optional() }).optional(),
  }),
});
export type TurnRequest = z.infer<typeof turnRequestSchema>['start'];

/** What the command line sends while its turn runs: an answer to one of its questions, or Stop. */
export const turnControlSchema = z.union([
  z.object({ answer: apiContract['approval/answer'].input }),
  z.object({ stop: z.literal(true) }),
]);

/** What the host sends: the turn's events, then its outcome (or why it could not start). */
export const turnReplySchema = z.union([
  z.object({ event: z.record(z.string(), z.unknown()) }),
  z.object({ outcome: z.object({ reason: z.string(), error: z.string().optional() }) }),
  z.object({ refused: z.string() }),
]);
