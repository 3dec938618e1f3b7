import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { ApprovalGate, ApprovalRefusal } from '../../core/batch/run-tool-call.ts';
import type { ApprovalTarget } from '../store/standing-approval-store.ts';

/** How a front end answers tools that need the person's approval. */
export type ApprovalPolicy =
  /** Ask the person through the UI (`approval/request` → `approval/answer`), or a terminal listening to it. */
  | 'ask'
  /** The person approved every such call in advance (`ask --approve-all`). */
  | 'allow'
  /** Nobody can be asked (a script): such calls are denied, with `denial` saying why and what would allow them. */
  | 'deny';

/** The standing approvals ("Always allow") the gate reads before asking and writes when the person says so. */
export interface StandingApprovals {
  covers(target: ApprovalTarget): boolean;
  add(target: ApprovalTarget): boolean;
}

const DEFAULT_WAIT_MS = 5 * 60_000;

interface WaitingQuestion {
  resolve: (answer: { approved: boolean; remember: boolean }) => void;
}

/**
 * The approval gate of the host. Tools that do not declare `needsApproval` pass. For those that do,
 * a standing approval of exactly this tool on exactly this device lets the call run unasked (journaled
 * as `approval/end` with `why: 'standing'`); otherwise the policy decides. With 'ask', an
 * `approval/request` event goes to every front end and the call waits for `answer()` — denied when
 * nobody answers in time or the turn is aborted; "Always allow" (`remember`) stores a standing approval.
 */
export class PersonApprovalGate {
  private readonly waiting = new Map<string, WaitingQuestion>();

  constructor(
    private readonly options: {
      policy: ApprovalPolicy;
      /** Journals and broadcasts an event, like the agent's own events. */
      emit: (event: AgentEvent) => void;
      waitMs?: number;
      /** The data folder's standing approvals; absent: nothing is remembered. */
      standing?: StandingApprovals;
      /** What a standing approval of a call would be about (its device); undefined: none may cover it. */
      targetOf?: (toolName: string, args: Record<string, unknown>) => ApprovalTarget | undefined;
      /** A standing approval was added (to tell every front end). */
      onStandingChange?: () => void;
      /** With policy 'deny': why, and what would allow the call (e.g. `ask` does not prompt). */
      denial?: (toolName: string) => ApprovalRefusal;
    },
  ) {}

  readonly gate: ApprovalGate = async (request) => {
    if (!request.tool.needsApproval) return true;
    const base = {
      at: Date.now(),
      conversationId: request.conversationId,
      turnId: request.turnId,
      batchId: request.batchId,
      callId: request.callId,
    };
    const target = this.targetOf(request.tool.name, request.args);
    if (target && this.options.standing?.covers(target)) {
      this.options.emit({
        ...base,
        type: 'approval/end',
        approved: true,
        why: 'standing',
        name: target.tool,
        ...(target.deviceId !== undefined ? { deviceId: target.deviceId } : {}),
      });
      return true;
    }
    if (this.options.policy === 'allow') return true;
    if (this.options.policy === 'deny') return this.options.denial?.(request.tool.name) ?? false;
    const answered = new Promise<{ approved: boolean; remember: boolean; why: 'answered' | 'timeout' | 'aborted' }>(
      (resolve) => {
        const finish = (result: { approved: boolean; remember: boolean; why: 'answered' | 'timeout' | 'aborted' }) => {
          clearTimeout(timer);
          request.signal.removeEventListener('abort', onAbort);
          this.waiting.delete(request.callId);
          resolve(result);
        };
        const onAbort = (): void => finish({ approved: false, remember: false, why: 'aborted' });
        const timer = setTimeout(
          () => finish({ approved: false, remember: false, why: 'timeout' }),
          this.options.waitMs ?? DEFAULT_WAIT_MS,
        );
        if (request.signal.aborted) return onAbort();
        request.signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.set(request.callId, { resolve: (answer) => finish({ ...answer, why: 'answered' }) });
      },
    );
    // Announced only once the answer can be received: a front end may answer at once.
    this.options.emit({
      ...base,
      type: 'approval/request',
      index: request.index,
      name: request.tool.name,
      args: request.args,
      ...(target?.deviceId !== undefined ? { deviceId: target.deviceId } : {}),
    });
    const { approved, remember, why } = await answered;
    const remembered = approved && remember && target !== undefined && this.options.standing !== undefined;
    if (remembered && this.options.standing?.add(target)) this.options.onStandingChange?.();
    this.options.emit({
      ...base,
      at: Date.now(),
      type: 'approval/end',
      approved,
      why,
      ...(remembered ? { remembered: true } : {}),
    });
    return approved;
  };

  /**
   * The person's answer; false when no question with that call id is open. `remember` with an
   * approval is "Always allow" (this tool on this device); when the call's device cannot be told it
   * allows this call only (its `approval/end` then says nothing was remembered), so a standing
   * approval never covers more than one device.
   */
  answer(callId: string, approved: boolean, remember = false): boolean {
    const question = this.waiting.get(callId);
    if (!question) return false;
    question.resolve({ approved, remember });
    return true;
  }

  private targetOf(toolName: string, args: Record<string, unknown>): ApprovalTarget | undefined {
    return this.options.targetOf ? this.options.targetOf(toolName, args) : { tool: toolName };
  }
}
