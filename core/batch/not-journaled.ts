import type { ToolOutcome } from '../tools/tool-result.ts';
import type { ToolCallRun } from '../tools/tool-call-run.ts';

/**
 * The answer of a call that never ran because the journal could not record `what` (its
 * `batch/start` or `tool/start`): nothing may happen in the home that is not recorded. Its
 * outcome is `not_sent`.
 */
export function notJournaledOutcome(options: { name: string; what: string }): ToolOutcome {
  return {
    ok: false,
    error: {
      reason: 'aborted',
      detail: `${options.name} did not run: the journal could not record its ${options.what}, and nothing may happen in the home that is not recorded.`,
      hint: 'Check the disk of the data folder (its free space and permissions), then ask again.',
    },
  };
}

/** The same answer as a whole run, for a way in that journals its calls itself (the MCP server). */
export function notJournaledRun(options: { name: string; what: string }): ToolCallRun {
  return { outcome: notJournaledOutcome(options), callOutcome: 'not_sent', media: [] };
}
