import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { ApprovalGate, ApprovalRefusal } from '../../core/batch/run-tool-call.ts';
import { checkEditedArguments } from '../../core/tools/check-edited-arguments.ts';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
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

/** A question the gate is waiting on, as another process's window needs it to answer. */
export interface OpenQuestion {
  approvalId: string;
  conversationId: string;
  turnId: string;
  askedAt: number;
  /** When the gate stops waiting (and refuses). */
  expiresAt: number;
}

/** Where the gate puts its open questions so other processes can answer them (the store). */
export interface QuestionBoard {
  open(question: OpenQuestion): void;
  close(approvalId: string): void;
}

/** How long one caller's calls wait for the person, and what a call nobody answered is told. */
export interface ApprovalWait {
  waitMs: number;
  /** The refusal of a call nobody answered in time: that it did not run, and how to allow it. */
  refusal: (question: { toolName: string; deviceId?: string; waitMs: number }) => ApprovalRefusal;
  /**
   * Takes one of the caller's places for an open question before it is asked: the function that
   * gives it back when the question ends, or a refusal (nothing is asked, the call does not run).
   */
  admit?: (question: { toolName: string }) => (() => void) | ApprovalRefusal;
  /**
   * This caller's own answer in advance, instead of the gate's policy: `allow` (a command line's
   * `--approve-all`, for its own turn only) or `deny` with the refusal (nobody can be asked).
   */
  policy?: { kind: 'allow' } | { kind: 'deny'; denial: (toolName: string) => ApprovalRefusal };
}

/** The approval PIN as the gate needs it: which calls need it, and the one check of a PIN given (counted). */
export interface PinGuard {
  needsPin(target: ApprovalTarget | undefined, tool: { readOnly?: boolean }): boolean;
  isSet(): boolean;
  check(pin: string | undefined): { ok: true } | { ok: false; message: string };
}

interface WaitingQuestion {
  resolve: (answer: { approved: boolean; remember: boolean; args?: Record<string, unknown> }) => void;
  /** Allowing it needs the approval PIN; `pinVerified` once a right one was given for it. */
  needsPin: boolean;
  pinVerified?: boolean;
  /** What the person may edit: the tool's schema and the model's arguments. */
  tool: ToolDefinition;
  modelArgs: Record<string, unknown>;
}

/** The person's answer to one question, named by its approvalId alone. */
export interface ApprovalAnswer {
  approvalId: string;
  approved: boolean;
  /** With an approval: "Always allow" the question's tool on the question's device. */
  remember?: boolean;
  /** With an approval: the person's edited arguments (checked first with `checkEdit`); never remembered. */
  args?: Record<string, unknown>;
  /** The host whose window gave the answer checked the PIN (another process on the folder, through the store). */
  pinChecked?: true;
}

/**
 * The approval gate of the host. Tools that do not declare `needsApproval` pass. For those that do,
 * a standing approval of exactly this tool on exactly this device lets the call run unasked (journaled
 * as `approval/end` with `why: 'standing'`); otherwise the policy decides. With 'ask', an
 * `approval/request` event goes to every front end and the call waits for `answer()` — denied when
 * nobody answers in time or the turn is aborted; "Always allow" (`remember`) stores a standing approval.
 * Every question has its own `approvalId` (on its request and its end), and an answer finds its
 * question by that id alone: call ids repeat across conversations, and a later store of questions
 * (another process's window answering) needs a key that says nothing else.
 */
export class PersonApprovalGate {
  /** The open questions, by approvalId. */
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
      /** Makes each question's approvalId; a random UUID unless a test says otherwise. */
      newId?: () => string;
      /** Where open questions are kept for other processes' windows (the store); absent: this process only. */
      questions?: QuestionBoard;
      /**
       * A call's own wait, refusal and bound, from who made it and in which turn (an MCP client's
       * calls, also inside a sequence it ran); undefined: `waitMs` and a plain denial.
       */
      waitFor?: (request: { caller?: string; turnId: string; conversationId: string }) => ApprovalWait | undefined;
      /** A problem the gate cannot put to the caller (the store refused the question board's write). */
      log?: (line: string) => void;
      /** The approval PIN; absent: no call needs it. */
      pin?: PinGuard;
    },
  ) {}

  readonly gate: ApprovalGate = async (request) => {
    const target = this.targetOf(request.tool.name, request.args);
    // A call that needs the PIN is asked even when its tool would not ask otherwise (the person marked it).
    const needsPin = this.options.pin?.needsPin(target, request.tool) === true;
    if (!request.tool.needsApproval && !needsPin) return true;
    const approvalId = (this.options.newId ?? randomUUID)();
    const base = {
      at: Date.now(),
      conversationId: request.conversationId,
      turnId: request.turnId,
      batchId: request.batchId,
      callId: request.callId,
      approvalId,
    };
    // A standing approval stops covering an action once it needs the PIN.
    if (target && !needsPin && this.options.standing?.covers(target)) {
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
    const wait = this.options.waitFor?.({
      ...(request.caller !== undefined ? { caller: request.caller } : {}),
      turnId: request.turnId,
      conversationId: request.conversationId,
    });
    const pinRefusal = needsPin ? this.pinRefusal(request.tool.name, wait) : undefined;
    if (pinRefusal) return pinRefusal;
    if (wait?.policy?.kind === 'allow') return true;
    if (wait?.policy?.kind === 'deny') return wait.policy.denial(request.tool.name);
    if (this.options.policy === 'allow') return true;
    if (this.options.policy === 'deny') return this.options.denial?.(request.tool.name) ?? false;
    const admitted = wait?.admit?.({ toolName: request.tool.name });
    // Past the caller's bound nothing is asked: the refusal says so and the call never runs.
    if (admitted !== undefined && typeof admitted !== 'function') return admitted;
    const waitMs = wait?.waitMs ?? this.options.waitMs ?? DEFAULT_WAIT_MS;
    const askedAt = Date.now();
    type Ending = {
      approved: boolean;
      remember: boolean;
      args?: Record<string, unknown>;
      why: 'answered' | 'timeout' | 'aborted';
    };
    const answered = new Promise<Ending>((resolve) => {
      const finish = (result: Ending) => {
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        this.waiting.delete(approvalId);
        this.closeQuestion(approvalId);
        resolve(result);
      };
      const onAbort = (): void => finish({ approved: false, remember: false, why: 'aborted' });
      const timer = setTimeout(() => finish({ approved: false, remember: false, why: 'timeout' }), waitMs);
      if (request.signal.aborted) return onAbort();
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(approvalId, {
        resolve: (answer) => finish({ ...answer, why: 'answered' }),
        needsPin,
        tool: request.tool,
        modelArgs: request.args,
      });
      this.openQuestion({
        approvalId,
        conversationId: request.conversationId,
        turnId: request.turnId,
        askedAt,
        expiresAt: askedAt + waitMs,
      });
    });
    request.onAsked?.();
    // Announced only once the answer can be received: a front end may answer at once.
    this.options.emit({
      ...base,
      type: 'approval/request',
      index: request.index,
      name: request.tool.name,
      args: request.args,
      ...(target?.deviceId !== undefined ? { deviceId: target.deviceId } : {}),
      ...(needsPin ? { needsPin: true as const } : {}),
    });
    const { approved, remember: rememberAsked, args: edited, why } = await answered;
    admitted?.();
    // An edited call is allowed once: Always allow never covers arguments the model did not ask for.
    // Nor does it cover a call that needs the PIN: each such call asks for it.
    const remember = rememberAsked && edited === undefined && !needsPin;
    const remembered = approved && remember && target !== undefined && this.options.standing !== undefined;
    if (remembered && this.options.standing?.add(target)) this.options.onStandingChange?.();
    this.options.emit({
      ...base,
      at: Date.now(),
      type: 'approval/end',
      approved,
      why,
      ...(remembered ? { remembered: true } : {}),
      ...(approved && edited !== undefined ? { edited: true as const } : {}),
    });
    if (!approved && why === 'timeout' && wait)
      return wait.refusal({
        toolName: request.tool.name,
        ...(target?.deviceId !== undefined ? { deviceId: target.deviceId } : {}),
        waitMs,
      });
    return approved && edited !== undefined ? { approved: true, args: edited } : approved;
  };

  /**
   * The person's answer to the question named by `approvalId`; false when no such question is open
   * (answered elsewhere, timed out, stopped, or never asked). `remember` with an approval is "Always
   * allow" of that question's tool on that question's device; when the call's device cannot be told
   * it allows this call only (its `approval/end` then says nothing was remembered), so a standing
   * approval never covers more than one device.
   */
  answer(answer: ApprovalAnswer): boolean {
    const question = this.waiting.get(answer.approvalId);
    if (!question) return false;
    // Allowing a PIN call takes a right PIN first (verifyPin), or one checked by the answering host.
    if (answer.approved && question.needsPin && question.pinVerified !== true && answer.pinChecked !== true)
      return false;
    const edit =
      answer.approved && answer.args !== undefined
        ? checkEditedArguments({ tool: question.tool, modelArgs: question.modelArgs, edited: answer.args })
        : undefined;
    // An edit that breaks a rule is never taken (checkEdit says why); one that changes nothing is a plain approval.
    if (edit && !edit.ok) return false;
    question.resolve({
      approved: answer.approved,
      remember: answer.remember === true,
      ...(edit?.ok && edit.changed ? { args: answer.args } : {}),
    });
    return true;
  }

  /**
   * Why the person's edited arguments for an open question cannot be taken (the schema, the input
   * bounds, `device_id` unchanged), in words for them; undefined when they can; 'not-here' when this
   * gate has no such question open. The call checks them again before it runs.
   */
  checkEdit(approvalId: string, args: Record<string, unknown>): string | 'not-here' | undefined {
    const question = this.waiting.get(approvalId);
    if (!question) return 'not-here';
    const edit = checkEditedArguments({ tool: question.tool, modelArgs: question.modelArgs, edited: args });
    return edit.ok ? undefined : edit.problem;
  }

  /**
   * Checks the PIN given with an approval of these questions, once for all of them: undefined when
   * none of those open here needs it or it is right (they may then be allowed), else why not (a
   * wrong PIN is counted toward the lock).
   */
  verifyPin(approvalIds: readonly string[], pin: string | undefined): string | undefined {
    const pinQuestions = approvalIds.flatMap((approvalId) => {
      const question = this.waiting.get(approvalId);
      return question?.needsPin && question.pinVerified !== true ? [question] : [];
    });
    if (pinQuestions.length === 0 || this.options.pin === undefined) return undefined;
    const checked = this.options.pin.check(pin);
    if (!checked.ok) return checked.message;
    for (const question of pinQuestions) question.pinVerified = true;
    return undefined;
  }

  /**
   * Why a call that needs the PIN is not asked at all: no PIN is set, or the caller allowed every
   * call in advance (which never stands for the PIN); undefined: ask (or deny, with a deny policy).
   */
  private pinRefusal(toolName: string, wait: ApprovalWait | undefined): ApprovalRefusal | undefined {
    if (wait?.policy?.kind === 'deny' || (wait?.policy === undefined && this.options.policy === 'deny'))
      return undefined;
    if (!this.options.pin?.isSet())
      return {
        approved: false,
        detail: `${toolName} needs the approval PIN, and none is set: it did not run.`,
        hint: 'Ask the person to set an Approval PIN in Settings, then try again.',
      };
    if (wait?.policy?.kind === 'allow' || (wait?.policy === undefined && this.options.policy === 'allow'))
      return {
        approved: false,
        detail: `${toolName} needs the approval PIN, and allowing every call in advance does not stand for it: it did not run.`,
        hint: 'Ask the person to run it where they can type the PIN (the window, or the terminal without --approve-all).',
      };
    return undefined;
  }

  /** Puts a question on the board; a store that refuses it leaves the question to this process's front ends. */
  private openQuestion(question: OpenQuestion): void {
    try {
      this.options.questions?.open(question);
    } catch (error) {
      this.options.log?.(
        `could not share the question ${question.approvalId} with other windows: ${(error as Error).message}`,
      );
    }
  }

  private closeQuestion(approvalId: string): void {
    try {
      this.options.questions?.close(approvalId);
    } catch (error) {
      // Left behind, the row is swept once past its time; nothing answers it meanwhile.
      this.options.log?.(`could not take down the question ${approvalId}: ${(error as Error).message}`);
    }
  }

  private targetOf(toolName: string, args: Record<string, unknown>): ApprovalTarget | undefined {
    return this.options.targetOf ? this.options.targetOf(toolName, args) : { tool: toolName };
  }
}
