import { BatchPanel } from './batch-panel.tsx';
import { ChatMessage } from './chat-message.tsx';
import { useAppStore } from './use-app-store.ts';

const endings = { aborted: 'Stopped.', max_steps: 'Stopped at the step limit.', error: 'The turn failed.' } as const;

/** One turn: the person's message, then the assistant's text and batches as they happened, then how it ended. */
export function TurnView(props: { turnId: string }) {
  const turn = useAppStore((state) => state.turns[props.turnId]);
  if (!turn) return null;
  const lastAssistant = turn.items.findLastIndex((item) => item.kind === 'assistant');
  return (
    <article className="turn" data-testid="turn" data-status={turn.status}>
      {turn.userText && <ChatMessage role="user" text={turn.userText} />}
      {turn.items.map((item, position) => {
        if (item.kind === 'batch') return <BatchPanel key={item.batchId} batchId={item.batchId} />;
        if (item.kind === 'error') {
          return (
            <p key={`error-${position}`} className="turn-error" role="alert">
              {item.message}
            </p>
          );
        }
        if (!item.text) return null;
        const streaming = turn.status === 'running' && !item.final && position === lastAssistant;
        return <ChatMessage key={`step-${item.step}`} role="assistant" text={item.text} streaming={streaming} />;
      })}
      {turn.status !== 'running' && turn.status !== 'done' && (
        <p className={`turn-ending turn-ending-${turn.status}`} data-testid="turn-ending">
          {endings[turn.status]}
          {turn.error && !turn.items.some((item) => item.kind === 'error' && item.message === turn.error)
            ? ` ${turn.error}`
            : ''}
        </p>
      )}
    </article>
  );
}
