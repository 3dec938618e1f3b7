import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';
import { ApiError } from './api-error.ts';

/** Why an answer changed nothing: no such question waits. */
export const NO_SUCH_ELICITATION =
  'No such question is waiting for an answer: it may have been answered in another window, withdrawn by the server, or it timed out.';

/**
 * The person's answers to plugins' questions during a call (elicitation), and the questions open now.
 * An accepted form whose values do not fit it is refused with 400 naming the first wrong field.
 */
export function elicitationHandlers(parts: HostParts): ApiHandlersOf<'elicitation/answer' | 'elicitations/list'> {
  return {
    'elicitation/answer': (input) => {
      const answer =
        input.action === 'accept'
          ? { action: 'accept' as const, content: input.content ?? {} }
          : { action: input.action };
      const result = parts.elicitations.answer(input.id, answer);
      if (result.ok) return { accepted: true };
      if (result.why === 'not-open') return { accepted: false, message: NO_SUCH_ELICITATION };
      const first = result.issues[0]!;
      throw new ApiError(400, `${first.message}; correct it and send the form again.`, {
        field: first.path,
        issues: result.issues,
      });
    },
    'elicitations/list': () => ({ questions: parts.elicitations.list() }),
  };
}
