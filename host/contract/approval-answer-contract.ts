import { z } from 'zod';

/** The most questions one answer names (far above any batch a model sends). */
export const MAX_QUESTIONS_PER_ANSWER = 256;

const approvalIdSchema = z
  .string({ error: () => 'must be the approvalId of an approval/request, a string' })
  .min(1)
  .max(200);

const MISSING_ID =
  'missing: name the question by the approvalId of its approval/request (a call id does not name a question)';

/**
 * The input of `approval/answer`: one question named by `approvalId` (Allow once, Always allow with
 * `remember`, Deny, or Allow with the person's edited `args`), or several named by `approvalIds`
 * (Allow all once, Deny all), which covers exactly those questions and nothing else.
 */
export const approvalAnswerInputSchema = z
  .object({
    approvalId: approvalIdSchema.optional(),
    approvalIds: z.array(approvalIdSchema).min(1).max(MAX_QUESTIONS_PER_ANSWER).optional(),
    approved: z.boolean(),
    remember: z.boolean().optional(),
    /** The arguments the person edited: the call runs with these instead of the model's (approved only). */
    args: z.record(z.string(), z.unknown()).optional(),
    /** The approval PIN, for a question whose `approval/request` says `needsPin`; checked in the host, never echoed or journaled. */
    pin: z.string().max(100).optional(),
  })
  .superRefine((input, context) => {
    const problem = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (input.approvalId === undefined && input.approvalIds === undefined) return problem('approvalId', MISSING_ID);
    if (input.approvalId !== undefined && input.approvalIds !== undefined)
      return problem('approvalIds', 'give either approvalId (one question) or approvalIds (several), not both');
    if (input.approvalIds !== undefined) {
      if (new Set(input.approvalIds).size !== input.approvalIds.length)
        problem('approvalIds', 'names a question twice: name each question once');
      if (input.remember === true)
        problem('remember', 'Always allow answers one question: name it by approvalId, not in approvalIds');
      if (input.args !== undefined)
        problem('args', 'edited arguments answer one question: name it by approvalId, not in approvalIds');
    }
    if (input.args !== undefined && !input.approved)
      problem('args', 'edited arguments come with approved: true (a denied call runs with nothing)');
    if (input.args !== undefined && input.remember === true)
      problem('remember', 'a call with edited arguments is allowed once: Always allow is not offered for it');
  });

export type ApprovalAnswerInput = z.infer<typeof approvalAnswerInputSchema>;

/**
 * What an answer did: `accepted` when every question it names took it; `answered` (for an answer
 * naming `approvalIds`) the ids that took it, so a partly late answer says which calls it allowed.
 */
export const approvalAnswerOutputSchema = z.object({
  accepted: z.boolean(),
  message: z.string().optional(),
  answered: z.array(z.string()).optional(),
});
