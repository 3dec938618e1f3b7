import { createInterface } from 'node:readline/promises';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { ApprovalRefusal } from '../../../core/batch/run-tool-call.ts';
import { compactJson } from '../../../core/tools/tool-result.ts';

/**
 * The question `ask` puts on the terminal: the tool, its device, its whole arguments (as compact JSON,
 * where controls and bidi characters are escapes: the person judges what will really be sent).
 */
export function approvalQuestion(event: Extract<AgentEvent, { type: 'approval/request' }>): string {
  const where = event.deviceId !== undefined ? ` on ${event.deviceId}` : '';
  return `${event.name}${where} wants to run with ${compactJson(event.args)}.\nAllow it? [y/N, a = always allow ${event.name}${where}] `;
}

/** Reads an answer: y/yes allows once, a/always allows and remembers, anything else denies. */
export function readApprovalAnswer(text: string): { approved: boolean; remember: boolean } {
  const answer = text.trim().toLowerCase();
  if (answer === 'a' || answer === 'always') return { approved: true, remember: true };
  return { approved: answer === 'y' || answer === 'yes', remember: false };
}

/** Why `ask` without a terminal denied a call, and what would allow it (instead of "the person did not allow"). */
export function scriptDenial(toolName: string): ApprovalRefusal {
  return {
    approved: false,
    detail: `${toolName} needs the person's approval, and home-agent ask does not prompt when it does not run in a terminal: it was not run.`,
    hint: 'Tell the person. They can run ask in a terminal to be asked, pass --approve-all, or choose "Always allow" for it once in the app (it then applies to ask too).',
  };
}

/**
 * Asks the person on the terminal, one question at a time (a parallel batch may ask several), and
 * sends each answer through `answer`, naming its question by approvalId. A question that stops
 * waiting (answered in the app, timed out, its batch stopped) is taken off the terminal, so the next
 * answer goes to the next question. Returns the function that stops asking.
 */
export function askOnTerminal(options: {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  subscribe: (listener: (event: AgentEvent) => void) => () => void;
  answer: (answer: { approvalId: string; approved: boolean; remember: boolean }) => Promise<{ accepted: boolean }>;
  signal: AbortSignal;
}): () => void {
  const prompt = createInterface({ input: options.input, output: options.output, terminal: true });
  // The questions asked or queued, by approvalId: an approval/end takes its question away.
  const waiting = new Map<string, AbortController>();
  let queue: Promise<void> = Promise.resolve();
  const unsubscribe = options.subscribe((event) => {
    if (event.type === 'approval/end') {
      if (event.approvalId === undefined) return;
      waiting.get(event.approvalId)?.abort();
      waiting.delete(event.approvalId);
      return;
    }
    // Every question the host asks names itself; one without an id (a journal of before) cannot be answered.
    if (event.type !== 'approval/request' || event.approvalId === undefined) return;
    const approvalId = event.approvalId;
    const question = new AbortController();
    waiting.set(approvalId, question);
    queue = queue.then(async () => {
      if (question.signal.aborted) return;
      try {
        const text = await prompt.question(approvalQuestion(event), {
          signal: AbortSignal.any([options.signal, question.signal]),
        });
        const { accepted } = await options.answer({ approvalId, ...readApprovalAnswer(text) });
        if (!accepted)
          options.output.write(`(${event.name} no longer waited for an answer: this one changed nothing)\n`);
      } catch (error) {
        // Stopped (Ctrl-C, the turn ended): the host denies an unanswered question on its own.
        if (question.signal.aborted) options.output.write(`\n(${event.name} no longer waits for an answer)\n`);
        else if (!options.signal.aborted) options.output.write(`\n(no answer: ${(error as Error).message})\n`);
      } finally {
        waiting.delete(approvalId);
      }
    });
  });
  return () => {
    unsubscribe();
    prompt.close();
  };
}
