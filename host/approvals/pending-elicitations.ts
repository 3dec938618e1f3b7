import { randomUUID } from 'node:crypto';
import {
  elicitationFormSchema,
  type ElicitationAnswer,
  type ElicitationEndNotice,
  type ElicitationRequestNotice,
  type ElicitationValue,
} from '../contract/elicitation-contract.ts';
import { elicitationContentIssues, type ElicitationIssue } from '../contract/elicitation-content.ts';

/** A plugin's question to the person during a call, as the plugin asks it. */
export interface ElicitationQuestion {
  /** The plugin that asks (`mcp-NAME`). */
  plugin: string;
  message: string;
  /** The form's schema as the plugin received it: checked against the bounded form before anything is shown. */
  requestedSchema: unknown;
  defaults: Record<string, ElicitationValue>;
  /** Aborts when the asker withdraws the question. */
  signal: AbortSignal;
}

/** Puts a question to the person's front ends and resolves with what the person did. */
export type ElicitationAsker = (question: ElicitationQuestion) => Promise<ElicitationAnswer>;

/** What became of an answer given at a front end. */
export type ElicitationAnswerResult =
  { ok: true } | { ok: false; why: 'not-open' } | { ok: false; why: 'invalid'; issues: ElicitationIssue[] };

/** How long a question waits for the person before it is cancelled (as an approval waits). */
export const ELICITATION_WAIT_MS = 5 * 60_000;

interface OpenQuestion {
  notice: ElicitationRequestNotice;
  finish: (answer: ElicitationAnswer) => void;
}

/**
 * The questions plugins put to the person (elicitation), and the front ends able to show them. A
 * question goes to every open front end as an `elicitation/request` notice and waits for the
 * person's answer (`answer`), checked against its form; it ends with `elicitation/end` when
 * answered, withdrawn by its asker, or after ELICITATION_WAIT_MS (cancelled). With no front end
 * open, or a form past the bounds, it is declined at once and nobody is shown anything. Nothing of
 * it is journaled: the values are the person's, and the model never sees the question.
 */
export class PendingElicitations {
  private readonly open = new Map<string, OpenQuestion>();
  private frontEnds = 0;

  constructor(
    private readonly options: {
      /** Sends a notice to every front end (live only). */
      notify: (notice: ElicitationRequestNotice | ElicitationEndNotice) => void;
      log: (line: string) => void;
      waitMs?: number;
      newId?: () => string;
    },
  ) {}

  /** A front end able to show a form opened (a window, a browser's live stream); call the result when it closes. */
  frontEndOpened(): () => void {
    this.frontEnds += 1;
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.frontEnds -= 1;
    };
  }

  /** Whether a front end that can show a form is open now. */
  hasFrontEnd(): boolean {
    return this.frontEnds > 0;
  }

  /** The questions waiting now, oldest first. */
  list(): ElicitationRequestNotice[] {
    return [...this.open.values()].map((question) => question.notice);
  }

  readonly ask: ElicitationAsker = (question) => {
    if (!this.hasFrontEnd()) return Promise.resolve({ action: 'decline' });
    const form = elicitationFormSchema.safeParse(question.requestedSchema);
    if (!form.success) {
      this.options.log(`${question.plugin}: its question was declined unshown: its form is not one a window can show`);
      return Promise.resolve({ action: 'decline' });
    }
    if (question.signal.aborted) return Promise.resolve({ action: 'cancel' });
    const id = (this.options.newId ?? randomUUID)();
    const notice: ElicitationRequestNotice = {
      type: 'elicitation/request',
      id,
      plugin: question.plugin,
      message: question.message.slice(0, 2_000),
      requestedSchema: form.data,
      defaults: question.defaults,
    };
    return new Promise<ElicitationAnswer>((resolve) => {
      const end = (answer: ElicitationAnswer, action: ElicitationEndNotice['action']): void => {
        clearTimeout(timer);
        question.signal.removeEventListener('abort', withdrawn);
        this.open.delete(id);
        this.options.notify({ type: 'elicitation/end', id, action });
        resolve(answer);
      };
      const withdrawn = (): void => end({ action: 'cancel' }, 'withdrawn');
      const timer = setTimeout(() => end({ action: 'cancel' }, 'cancel'), this.options.waitMs ?? ELICITATION_WAIT_MS);
      question.signal.addEventListener('abort', withdrawn, { once: true });
      this.open.set(id, { notice, finish: (answer) => end(answer, answer.action) });
      this.options.notify(notice);
    });
  };

  /** The person's answer to the open question `id`: taken when it fits the form, else the issues. */
  answer(id: string, answer: ElicitationAnswer): ElicitationAnswerResult {
    const question = this.open.get(id);
    if (!question) return { ok: false, why: 'not-open' };
    if (answer.action === 'accept') {
      // A field left out takes its default (SEP-1034): checked as the asker will be sent it.
      const sent = { ...question.notice.defaults, ...answer.content };
      const issues = elicitationContentIssues(question.notice.requestedSchema, sent);
      if (issues.length > 0) return { ok: false, why: 'invalid', issues };
    }
    question.finish(answer);
    return { ok: true };
  }

  /** Cancels every open question (the host is shutting down). */
  dispose(): void {
    for (const question of [...this.open.values()]) question.finish({ action: 'cancel' });
  }
}
