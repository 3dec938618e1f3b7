import { ToolError } from '../../tools/tool-error.ts';
import { describeBudget } from './sequence-budget.ts';
import type { SequenceCallReport, SequenceRunReport } from './sequence-run-report.ts';

function toolCalls(report: SequenceRunReport): SequenceCallReport[] {
  return report.groups.flatMap((group) =>
    group.calls.flatMap((call) => [
      ...(call.tool !== undefined ? [call] : []),
      ...(call.report ? toolCalls(call.report) : []),
    ]),
  );
}

/**
 * The ToolError for a run its budget stopped (`timeout` for wall time, `failed` for calls or
 * result size), saying which budget and what had already run; undefined for any other report.
 */
export function budgetStopError(report: SequenceRunReport): ToolError | undefined {
  const exceeded = report.budget;
  if (exceeded === undefined) return undefined;
  const calls = toolCalls(report);
  const succeeded = calls.filter((call) => call.status === 'ok').length;
  const failed = calls.filter((call) => call.status === 'failed' || call.status === 'refused').length;
  return new ToolError({
    reason: exceeded.budget === 'wall_time' ? 'timeout' : 'failed',
    detail: `the sequence ${report.sequence} was stopped: it reached its budget of ${describeBudget(exceeded)} per run (nested sequences included); ${succeeded} tool calls had run and succeeded, ${failed} had failed or were cut off, the rest did not start`,
    hint: 'The calls that already ran took effect. Run a smaller sequence, or fewer nested sequence calls per run.',
  });
}
