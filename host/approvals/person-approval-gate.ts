import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { ApprovalGate } from '../../core/batch/run-tool-call.ts';

/** How a front end answers tools that need the person's approval. */
export type ApprovalPolicy =
  /** Ask the person through the UI (`approval/request` → `approval/answer`). */
  | 'ask'
  /** The person approved every such call in advance (`ask --approve-all`). */
  | 'allow'
  /** Nobody can be asked (a script): such calls are denied. */
  | 'deny';

const DEFAULT_WAIT_MS = 5 * 60_000;

/**
 * The approval gate of the host. Tools that do not declare `needsApproval` pass. For those that do,
 * the policy decides; with 'ask', an `approval/request` event goes to every front end and the call
 * waits for `answer()` — denied when nobody answers in time or the turn is aborted.
 */
export class PersonApprovalGate {
  private readonly waiting = new Map<string, (approved: boolean) => void>();

  constructor(
    private readonly options: {
      policy: ApprovalPolicy;
      /** Journals and broadcasts an event, like the agent's own events. */
      emit: (event: AgentEvent) => void;
      waitMs?: number;
    },
  ) {}

  readonly gate: ApprovalGate = async (request) => {
    if (!request.tool.needsApproval) return true;
    if (this.options.policy !== 'ask') return this.options.policy === 'allow';
    const base = {
      at: Date.now(),
      conversationId: request.conversationId,
      turnId: request.turnId,
      batchId: request.batchId,
      callId: request.callId,
    };
    const answered = new Promise<{ approved: boolean; why: 'answered' | 'timeout' | 'aborted' }>((resolve) => {
      const finish = (result: { approved: boolean; why: 'answered' | 'timeout' | 'aborted' }): void => {
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        this.waiting.delete(request.callId);
        resolve(result);
      };
      const onAbort = (): void => finish({ approved: false, why: 'aborted' });
      const timer = setTimeout(
        () => finish({ approved: false, why: 'timeout' }),
        this.options.waitMs ?? DEFAULT_WAIT_MS,
      );
      if (request.signal.aborted) return onAbort();
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.callId, (answer) => finish({ approved: answer, why: 'answered' }));
    });
    // Announced only once the answer can be received: a front end may answer at once.
    this.options.emit({
      ...base,
      type: 'approval/request',
      index: request.index,
      name: request.tool.name,
      args: request.args,
    });
    const { approved, why } = await answered;
    this.options.emit({ ...base, at: Date.now(), type: 'approval/end', approved, why });
    return approved;
  };

  /** The person's answer; false when no question with that call id is open. */
  answer(callId: string, approved: boolean): boolean {
    const resolve = this.waiting.get(callId);
    if (!resolve) return false;
    resolve(approved);
    return true;
  }
}
