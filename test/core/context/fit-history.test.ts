import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ConversationMessage, ToolResultMessage } from '../../../core/models/conversation-message.ts';
import { applyFit, fitHistory } from '../../../core/context/fit-history.ts';
import { messageBytes } from '../../../core/context/request-bytes.ts';
import { shortenToolResult } from '../../../core/context/shorten-tool-result.ts';
import { openAiRequestBody } from '../../../core/models/openai/openai-request-body.ts';
import { anthropicRequestBody } from '../../../core/models/anthropic/anthropic-request-body.ts';
import { geminiRequestBody } from '../../../core/models/gemini/gemini-request-body.ts';
import { ollamaRequestBody } from '../../../core/models/ollama/ollama-request-body.ts';
import { formatProblems } from './format-problems.ts';

const user = (text: string): ConversationMessage => ({ role: 'user', text });
const reply = (text: string, ...ids: string[]): ConversationMessage => ({
  role: 'assistant',
  text,
  toolCalls: ids.map((id) => ({ id, name: 'lamp__get', args: { device_id: 'lamp-1' } })),
});
const result = (id: string, content: string): ToolResultMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'lamp__get',
  content,
  isError: false,
});

describe('fitHistory', () => {
  it('sends everything when it fits, and everything but what comes before the first person’s message', () => {
    const history = [user('lamp on?'), reply('', 'c1'), result('c1', '{"on":true}'), reply('It is on.')];
    const whole = fitHistory({ messages: history, fixedBytes: 100, budgetBytes: 100_000 });
    expect(whole).toMatchObject({ omittedTurns: 0, shortenedResults: 0, omittedBytes: 0, tooLarge: false });
    expect(whole.messages).toEqual(history);
    // A history whose first stored messages are not the person's (rows lost before it): never sent.
    const orphaned = fitHistory({ messages: [reply('orphan'), ...history], fixedBytes: 0 });
    expect(orphaned.messages).toEqual(history);
    expect(orphaned.omittedTurns).toBe(1);
  });

  it('shortens older results over 2 KiB, oldest first, before it leaves out a turn', () => {
    const big = (id: string) => result(id, 'x'.repeat(5000));
    const history = [
      user('first'),
      reply('', 'a'),
      big('a'),
      user('second'),
      reply('', 'b'),
      big('b'),
      user('third'),
      reply('', 'c'),
      big('c'),
    ];
    const whole = history.reduce((sum, message) => sum + messageBytes(message), 0);
    // Room for everything but ~3,000 bytes: shortening the oldest result (5,000 → ~1,200) is enough.
    const fitted = fitHistory({ messages: history, fixedBytes: 0, budgetBytes: whole - 3000 });
    expect(fitted).toMatchObject({ omittedTurns: 0, shortenedResults: 1, tooLarge: false });
    expect(fitted.messages[2]).toEqual(shortenToolResult(big('a')));
    expect((fitted.messages[2] as ToolResultMessage).content).toMatch(
      /^x{1024}…\n\[Home Agent left out 3976 of the 5000 bytes of this result to fit the model's context window; call lamp__get again to see it whole\.\]$/,
    );
    // The current turn's result is never shortened, however tight.
    expect(fitted.messages.at(-1)).toBe(history.at(-1));
    // Tighter: both older results shortened, still no turn left out.
    const tighter = fitHistory({ messages: history, fixedBytes: 0, budgetBytes: whole - 7000 });
    expect(tighter).toMatchObject({ omittedTurns: 0, shortenedResults: 2 });
    // Tighter still: the oldest turn is left out whole, the other older result stays shortened.
    const tightest = fitHistory({ messages: history, fixedBytes: 0, budgetBytes: whole - 8500 });
    expect(tightest).toMatchObject({ omittedTurns: 1, shortenedResults: 1 });
    expect(tightest.messages[0]).toBe(history[3]);
    expect(tightest.messages[2]).toEqual(shortenToolResult(big('b')));
  });

  it('sends nothing when the fixed parts and the current turn alone are over the budget', () => {
    const history = [user('old'), reply('ok'), user('y'.repeat(3000))];
    const fitted = fitHistory({ messages: history, fixedBytes: 1000, budgetBytes: 3500 });
    expect(fitted.tooLarge).toBe(true);
    expect(fitted.messages).toEqual([]);
    expect(fitted.currentTurnBytes).toBe(messageBytes(history[2]!));
  });

  it('keeps the marker honest about images it leaves out', () => {
    const pictured: ToolResultMessage = {
      ...result('p', '{"saved":"snap.png"}'),
      media: [{ mimeType: 'image/png', data: 'iVBORw0=' }],
    };
    const shortened = shortenToolResult(pictured);
    expect(shortened.media).toBeUndefined();
    expect(shortened.content).toContain('of this result and its image to fit');
  });
});

/** A conversation as the store keeps it: turns of a person's message, steps of calls and their results, a last reply. */
const historyArbitrary = fc
  .record({
    orphanFirst: fc.boolean(),
    turns: fc.array(
      fc.record({
        text: fc.nat(400),
        steps: fc.array(
          fc.array(fc.record({ size: fc.nat(6000), char: fc.constantFrom('a', 'é', '€', '😀') }), { maxLength: 3 }),
          {
            maxLength: 3,
          },
        ),
        closing: fc.boolean(),
      }),
      { minLength: 1, maxLength: 8 },
    ),
  })
  .map(({ orphanFirst, turns }) => {
    const messages: ConversationMessage[] = orphanFirst ? [reply('left over from a lost row')] : [];
    let id = 0;
    turns.forEach((turn, turnIndex) => {
      messages.push(user(`turn ${turnIndex} ${'w'.repeat(turn.text)}`));
      for (const step of turn.steps) {
        const ids = step.map(() => `call_${(id += 1)}`);
        messages.push(reply(ids.length === 0 ? 'thinking' : '', ...ids));
        step.forEach((call, position) => messages.push(result(ids[position]!, call.char.repeat(call.size))));
      }
      if (turn.closing) messages.push(reply(`done ${turnIndex}`));
    });
    return messages;
  });

const bytesOf = (messages: readonly ConversationMessage[]): number =>
  messages.reduce((sum, message) => sum + messageBytes(message), 0);

describe('fitHistory, for any history and any budget', () => {
  it('gives a request every provider accepts: pairs kept, the person first, the current turn whole, within the budget unless it says it cannot', () => {
    fc.assert(
      fc.property(
        historyArbitrary,
        fc.nat(8000),
        fc.option(fc.nat(80_000), { nil: undefined }),
        (messages, fixedBytes, budgetBytes) => {
          const fitted = fitHistory({ messages, fixedBytes, ...(budgetBytes !== undefined ? { budgetBytes } : {}) });
          const lastUser = messages.findLastIndex((message) => message.role === 'user');
          const current = messages.slice(lastUser);
          if (fitted.tooLarge) {
            // Only when the turn's own part cannot fit: never a silent cut.
            expect(budgetBytes).toBeDefined();
            expect(fixedBytes + bytesOf(current)).toBeGreaterThan(budgetBytes!);
            expect(fitted.messages).toEqual([]);
            return;
          }
          const sent = fitted.messages;
          if (budgetBytes !== undefined) expect(fixedBytes + bytesOf(sent)).toBeLessThanOrEqual(budgetBytes);
          expect(fitted.messageBytes).toBe(bytesOf(sent));
          expect(fitted.omittedBytes).toBe(bytesOf(messages) - bytesOf(sent));
          // The current turn is sent whole, last, untouched.
          expect(sent.slice(-current.length)).toEqual(current);
          // The person's message is first.
          expect(sent[0]?.role).toBe('user');
          // What was sent is the history from some person's message on, a few older results shortened.
          const start = messages.length - sent.length;
          sent.forEach((message, index) => {
            const original = messages[start + index]!;
            if (message !== original) expect(message).toEqual(shortenToolResult(original as ToolResultMessage));
          });
          // When everything fits, nothing is left out (but what precedes the first person's message).
          const forced = messages[0]?.role === 'user' ? 0 : 1;
          if (
            budgetBytes === undefined ||
            fixedBytes + bytesOf(messages.slice(forced === 1 ? messages.findIndex((m) => m.role === 'user') : 0)) <=
              budgetBytes
          )
            expect(fitted).toMatchObject({ omittedTurns: forced, shortenedResults: 0 });
          // verify rebuilds exactly what was sent from the whole history and the two counts.
          expect(applyFit(messages, fitted)).toEqual(sent);
          // Every wire format takes it.
          const request = { system: 'You control lamps.', messages: sent, tools: [] };
          expect(formatProblems('openai', openAiRequestBody({ request, model: 'm' }))).toEqual([]);
          expect(formatProblems('ollama', ollamaRequestBody({ request, model: 'm' }))).toEqual([]);
          expect(formatProblems('anthropic', anthropicRequestBody({ request, model: 'm' }))).toEqual([]);
          expect(formatProblems('gemini', geminiRequestBody({ request }))).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });
});
