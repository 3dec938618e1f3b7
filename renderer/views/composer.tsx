import { memo, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { AriaDisabledButton } from './aria-disabled-button.tsx';
import { useAppStore } from './use-app-store.ts';
import { turnIsStopping } from '../state/chat-slice.ts';

/**
 * The message box: Enter or Send sends, Shift+Enter breaks the line, Stop aborts the running turn.
 * It has the focus when the page opens, after a message is sent and when a conversation is opened.
 * A message that was not sent stays in the box, with why and what to do above it. Memoised: the chat
 * around it draws again whenever a turn's height changes, and the box has no part in that.
 */
export const Composer = memo(ComposerBody);

function ComposerBody() {
  const [text, setText] = useState('');
  const sending = useAppStore((state) => state.sending);
  const openId = useAppStore((state) => state.openConversationId);
  const running = useAppStore((state) => {
    const order = state.openConversationId ? state.turnOrder[state.openConversationId] : undefined;
    const last = order?.[order.length - 1];
    return last !== undefined && state.turns[last]?.status === 'running';
  });
  const stopping = useAppStore((state) => {
    const order = state.openConversationId ? state.turnOrder[state.openConversationId] : undefined;
    return turnIsStopping(state, order?.[order.length - 1]);
  });
  const sendMessage = useAppStore((state) => state.sendMessage);
  const sendFailure = useAppStore((state) => state.sendFailure);
  const abortTurn = useAppStore((state) => state.abortTurn);
  const input = useRef<HTMLTextAreaElement>(null);
  const canSend = text.trim().length > 0 && !sending && !running;

  useEffect(() => {
    // Only when no drawer holds the focus (a drawer closes itself when a conversation is chosen).
    if (!document.querySelector('.drawer-open')) input.current?.focus({ preventScroll: true });
  }, [openId]);

  async function submit(event?: FormEvent): Promise<void> {
    event?.preventDefault();
    if (!canSend) return;
    if (await sendMessage(text.trim())) setText('');
    input.current?.focus({ preventScroll: true });
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  }

  return (
    <form className="composer" onSubmit={(event) => void submit(event)}>
      {sendFailure && (
        <p className="composer-failure" role="alert" data-testid="send-failure" id="composer-failure">
          {sendFailure}
        </p>
      )}
      <label className="visually-hidden" htmlFor="composer-input">
        Message to Home Agent
      </label>
      <textarea
        id="composer-input"
        ref={input}
        className="composer-input"
        data-testid="composer-input"
        placeholder="Turn on the lamps and tell me the temperature…"
        rows={2}
        maxLength={20_000}
        value={text}
        aria-describedby={sendFailure ? 'composer-failure' : undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {running ? (
        <AriaDisabledButton
          className="button button-stop"
          data-testid="stop-button"
          unavailable={stopping}
          onPress={() => void abortTurn()}
        >
          {stopping ? 'Stopping…' : 'Stop'}
        </AriaDisabledButton>
      ) : (
        <button type="submit" className="button button-primary" data-testid="send-button" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  );
}
