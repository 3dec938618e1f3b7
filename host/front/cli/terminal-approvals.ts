import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { ApprovalRefusal } from '../../../core/batch/run-tool-call.ts';
import { compactJson } from '../../../core/tools/tool-result.ts';
import { asksToEdit, editQuestion, readEditedArguments } from './terminal-argument-edit.ts';

/**
 * The question `ask` puts on the terminal: the tool, its device, its whole arguments (as compact JSON,
 * where controls and bidi characters are escapes: the person judges what will really be sent).
 */
export function approvalQuestion(event: Extract<AgentEvent, { type: 'approval/request' }>): string {
  const where = event.deviceId !== undefined ? ` on ${event.deviceId}` : '';
  // A call that needs the PIN is never always allowed: the PIN is asked after the y.
  const always = event.needsPin ? ' (needs the PIN)' : `, a = always allow ${event.name}${where}`;
  return `${event.name}${where} wants to run with ${compactJson(event.args)}.\nAllow it? [y/N${always}, e = edit the arguments] `;
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

type ApprovalRequest = Extract<AgentEvent, { type: 'approval/request' }>;
type AskedRequest = ApprovalRequest & { approvalId: string };

/** The question for two or more calls of one batch, in index order: allow all once, deny all, or one by one. */
export function batchApprovalQuestion(events: readonly ApprovalRequest[]): string {
  const lines = events.map((event) => {
    const where = event.deviceId !== undefined ? ` on ${event.deviceId}` : '';
    return `  ${event.index + 1}. ${event.name}${where} with ${compactJson(event.args)}`;
  });
  return `${events.length} calls of one batch want to run:\n${lines.join('\n')}\nAllow all ${events.length} once? [a = allow all, d = deny all, o = one by one] `;
}

/** Reads the batch's answer: a/all allows all once, d/deny denies all, anything else asks one by one. */
export function readBatchAnswer(text: string): 'all' | 'none' | 'each' {
  const answer = text.trim().toLowerCase();
  if (answer === 'a' || answer === 'all') return 'all';
  if (answer === 'd' || answer === 'deny') return 'none';
  return 'each';
}

/** An answer `ask` sends: to one question, or to each of several named (the batch's). */
export type TerminalAnswer =
  | { approvalId: string; approved: boolean; remember: boolean; args?: Record<string, unknown>; pin?: string }
  | { approvalIds: string[]; approved: boolean; pin?: string };

/**
 * Asks the person on the terminal, one question at a time (a parallel batch may ask several), and
 * sends each answer through `answer`, naming its questions by approvalId. When two or more calls of
 * one batch wait, one question covers them (`a` all, `d` deny all, or one by one); a call of the
 * batch asked alone is asked again with the others when they arrive. A question that stops waiting
 * (answered in the app, timed out, its batch stopped) is taken off the terminal, so the next answer
 * goes to the next question. Returns the function that stops asking.
 */
export function askOnTerminal(options: {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  subscribe: (listener: (event: AgentEvent) => void) => () => void;
  answer: (answer: TerminalAnswer) => Promise<{ accepted: boolean; answered?: string[]; message?: string }>;
  signal: AbortSignal;
}): () => void {
  // While the PIN is typed nothing the terminal would echo reaches the output.
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted) options.output.write(chunk);
      done();
    },
  });
  const prompt = createInterface({ input: options.input, output, terminal: true });
  // The questions asked or queued, by approvalId: an approval/end takes its question away.
  const waiting = new Map<string, { event: AskedRequest; stop: AbortController }>();
  // The single question on the screen, which a later call of its batch takes off to ask them together.
  let alone: { batchId: string; regroup: AbortController } | undefined;
  let queue: Promise<void> = Promise.resolve();

  const ask = (text: string, stops: AbortSignal[]) =>
    prompt.question(text, { signal: AbortSignal.any([options.signal, ...stops]) });

  /** The approval PIN, typed without echo; only the host checks it. */
  const askPin = async (stops: AbortSignal[]): Promise<{ pin: string }> => {
    options.output.write('PIN (not shown): ');
    muted = true;
    try {
      return { pin: await ask('', stops) };
    } finally {
      muted = false;
      options.output.write('\n');
    }
  };

  /**
   * The person's own arguments for a call, asked until the host takes them; false when they go back
   * to the call's question (an empty line).
   */
  const askEdit = async (approvalId: string, event: AskedRequest, stop: AbortSignal): Promise<boolean> => {
    for (;;) {
      const line = await ask(editQuestion(event), [stop]);
      if (line.trim() === '') return false;
      const read = readEditedArguments(line, event.args);
      if (!read.ok) {
        options.output.write(`(${read.problem})\n`);
        continue;
      }
      const reply = await options.answer({ approvalId, approved: true, remember: false, args: read.args });
      if (reply.accepted) return true;
      options.output.write(`(${reply.message ?? 'the host did not take these arguments'})\n`);
    }
  };

  /** One call's question (y/N, a = always, e = edit); false when it was taken off to be asked with its batch. */
  const askOne = async (approvalId: string, regroupable: boolean): Promise<boolean> => {
    const question = waiting.get(approvalId);
    if (!question || question.stop.signal.aborted) return true;
    const { event } = question;
    const regroup = new AbortController();
    if (regroupable) alone = { batchId: event.batchId, regroup };
    try {
      for (;;) {
        const text = await ask(approvalQuestion(event), [question.stop.signal, regroup.signal]);
        if (asksToEdit(text)) {
          // Editing is answering: a later call of the batch no longer takes this one off the screen.
          if (alone?.regroup === regroup) alone = undefined;
          if (await askEdit(approvalId, event, question.stop.signal)) break;
          continue;
        }
        const read = readApprovalAnswer(text);
        const pin = read.approved && event.needsPin ? await askPin([question.stop.signal]) : {};
        const { accepted, message } = await options.answer({ approvalId, ...read, ...pin });
        if (!accepted && event.needsPin && read.approved && message !== undefined) {
          // A wrong PIN leaves the question open: the person may answer again.
          options.output.write(`(${message})\n`);
          continue;
        }
        if (!accepted)
          options.output.write(`(${event.name} no longer waited for an answer: this one changed nothing)\n`);
        break;
      }
    } catch (error) {
      if (regroup.signal.aborted && !question.stop.signal.aborted) {
        options.output.write('\n');
        return false;
      }
      // Stopped (Ctrl-C, the turn ended): the host denies an unanswered question on its own.
      if (question.stop.signal.aborted) options.output.write(`\n(${event.name} no longer waits for an answer)\n`);
      else if (!options.signal.aborted) options.output.write(`\n(no answer: ${(error as Error).message})\n`);
    } finally {
      if (alone?.regroup === regroup) alone = undefined;
    }
    waiting.delete(approvalId);
    return true;
  };

  /** The batch's question over the calls of it still waiting; then, if asked, each alone. */
  /** True when the batch must be asked again (one of its calls stopped waiting meanwhile). */
  const askBatch = async (group: AskedRequest[]): Promise<boolean> => {
    const stops = group.map((event) => waiting.get(event.approvalId)?.stop.signal).filter((stop) => stop !== undefined);
    // Any of them ending (answered elsewhere, timed out) changes what "all" means: ask again.
    const changed = AbortSignal.any(stops);
    let choice: 'all' | 'none' | 'each';
    try {
      choice = readBatchAnswer(await ask(batchApprovalQuestion(group), [changed]));
    } catch (error) {
      if (changed.aborted && !options.signal.aborted) {
        options.output.write('\n(one of them no longer waits for an answer)\n');
        return true;
      }
      if (!options.signal.aborted) options.output.write(`\n(no answer: ${(error as Error).message})\n`);
      for (const event of group) waiting.delete(event.approvalId);
      return false;
    }
    if (choice === 'each') {
      for (const event of group) await askOne(event.approvalId, false);
      return false;
    }
    const approvalIds = group.map((event) => event.approvalId);
    const pin =
      choice === 'all' && group.some((event) => event.needsPin) ? await askPin([changed]).catch(() => ({})) : {};
    const reply = await options.answer({ approvalIds, approved: choice === 'all', ...pin });
    for (const approvalId of approvalIds) waiting.delete(approvalId);
    if (!reply.accepted)
      options.output.write(
        `(${approvalIds.length - (reply.answered?.length ?? 0)} of them no longer waited for an answer: the answer changed nothing for those)\n`,
      );
    return false;
  };

  /** Puts the question of `approvalId` with the others of its batch still waiting, until it is answered or gone. */
  const put = async (approvalId: string): Promise<void> => {
    for (;;) {
      const question = waiting.get(approvalId);
      if (!question || question.stop.signal.aborted) return;
      const group = [...waiting.values()]
        .filter((other) => other.event.batchId === question.event.batchId && !other.stop.signal.aborted)
        .map((other) => other.event)
        .sort((left, right) => left.index - right.index);
      if (group.length >= 2) {
        if (!(await askBatch(group))) return;
      } else if (await askOne(approvalId, true)) return;
    }
  };

  const unsubscribe = options.subscribe((event) => {
    if (event.type === 'approval/end') {
      if (event.approvalId === undefined) return;
      waiting.get(event.approvalId)?.stop.abort();
      waiting.delete(event.approvalId);
      return;
    }
    // Every question the host asks names itself; one without an id (a journal of before) cannot be answered.
    if (event.type !== 'approval/request' || event.approvalId === undefined) return;
    const approvalId = event.approvalId;
    waiting.set(approvalId, { event: { ...event, approvalId }, stop: new AbortController() });
    // A call of the batch on the screen alone: take it off, to ask them together.
    if (alone?.batchId === event.batchId) alone.regroup.abort();
    queue = queue.then(() => put(approvalId));
  });
  return () => {
    unsubscribe();
    prompt.close();
  };
}
