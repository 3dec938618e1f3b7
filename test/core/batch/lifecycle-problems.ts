import type { AgentEventInput } from '../../../core/events/agent-event.ts';

/**
 * Checks that every start has its one end, properly nested: turn ⊃ step ⊃ batch ⊃ tool (a batch
 * begins at `batch/open`, or at `batch/start` where there is none). With
 * `batchOnly`, the events are one batch's (from `runBatch`), with no turn or step around them.
 * Returns the problems found (empty when balanced).
 */
export function lifecycleProblems(events: readonly AgentEventInput[], options: { batchOnly?: boolean } = {}): string[] {
  const problems: string[] = [];
  let turnOpen = options.batchOnly === true;
  let step: number | undefined = options.batchOnly ? 0 : undefined;
  let batch: string | undefined;
  const tools = new Set<string>();
  for (const [i, event] of events.entries()) {
    const at = `#${i} ${event.type}`;
    switch (event.type) {
      case 'turn/start':
        if (turnOpen) problems.push(`${at}: a turn is still open`);
        turnOpen = true;
        break;
      case 'turn/end':
        if (!turnOpen) problems.push(`${at}: no turn is open`);
        if (step !== undefined) problems.push(`${at}: step ${step} still open`);
        turnOpen = false;
        break;
      case 'step/start':
        if (!turnOpen || step !== undefined) problems.push(`${at}: outside a turn or inside step ${step}`);
        step = event.step;
        break;
      case 'step/end':
        if (step !== event.step) problems.push(`${at}: ends step ${event.step}, open is ${step}`);
        if (batch !== undefined) problems.push(`${at}: batch ${batch} still open`);
        step = undefined;
        break;
      case 'batch/open':
        if (step === undefined || batch !== undefined) problems.push(`${at}: outside a step or inside batch ${batch}`);
        batch = event.batchId;
        break;
      case 'batch/start':
        // Declared inside the batch it opened (journals from before batch/open begin with it).
        if (step === undefined || (batch !== undefined && batch !== event.batchId))
          problems.push(`${at}: outside a step or inside batch ${batch}`);
        batch = event.batchId;
        break;
      case 'batch/end':
        if (batch !== event.batchId) problems.push(`${at}: ends batch ${event.batchId}, open is ${batch}`);
        if (tools.size > 0) problems.push(`${at}: calls ${[...tools].join(', ')} still open`);
        batch = undefined;
        break;
      case 'tool/start':
        if (batch !== event.batchId || tools.has(event.callId))
          problems.push(`${at}: ${event.callId} outside its batch or started twice`);
        tools.add(event.callId);
        break;
      case 'tool/end':
        // A call that never started (a cut reply's) is answered not_sent without a tool/start.
        if (!tools.delete(event.callId) && event.outcome !== 'not_sent')
          problems.push(`${at}: ${event.callId} ended without a start`);
        break;
      default:
        break;
    }
  }
  if (options.batchOnly) {
    if (batch !== undefined) problems.push(`batch ${batch} never ended`);
  } else if (turnOpen) problems.push('the turn never ended');
  return problems;
}
