import { useState, type FormEvent } from 'react';
import type { ConversationSummary } from '../../host/contract/api-contract.ts';
import { ConfirmQuestion } from './confirm-question.tsx';
import { useAppStore } from './use-app-store.ts';
import { useModeReturningFocus } from './use-mode-returning-focus.ts';

/**
 * One conversation of the list: a button that opens it (marked current when open), and Rename and
 * Delete. Rename edits the title in place (Enter saves, Escape cancels); Delete asks first, with
 * Keep focused (the safe choice). The focus returns to the row's own button afterwards.
 */
export function ConversationItem(props: { conversation: ConversationSummary }) {
  const { conversation } = props;
  const current = useAppStore((state) => state.openConversationId === conversation.id);
  const busy = useAppStore((state) => {
    const order = state.turnOrder[conversation.id];
    const last = order?.[order.length - 1];
    return last !== undefined && state.turns[last]?.status === 'running';
  });
  const openConversation = useAppStore((state) => state.openConversation);
  const renameConversation = useAppStore((state) => state.renameConversation);
  const deleteConversation = useAppStore((state) => state.deleteConversation);
  const { mode, open, close, opener } = useModeReturningFocus<'view' | 'rename' | 'delete'>('view');
  const [title, setTitle] = useState(conversation.title);
  const label = conversation.title || 'Untitled';

  async function saveTitle(event: FormEvent): Promise<void> {
    event.preventDefault();
    const trimmed = title.trim();
    if (trimmed === '' || trimmed === conversation.title) return close();
    if (await renameConversation(conversation.id, trimmed)) close();
  }

  return (
    <li
      className={current ? 'conversation-row conversation-row-open' : 'conversation-row'}
      data-testid="conversation-row"
      data-conversation-id={conversation.id}
    >
      {mode === 'rename' ? (
        <form className="conversation-rename" onSubmit={(event) => void saveTitle(event)}>
          <label className="visually-hidden" htmlFor={`rename-${conversation.id}`}>
            New title for “{label}”
          </label>
          <input
            id={`rename-${conversation.id}`}
            className="conversation-rename-input"
            data-testid="conversation-rename-input"
            value={title}
            maxLength={200}
            autoFocus
            onChange={(event) => setTitle(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.stopPropagation();
                setTitle(conversation.title);
                close();
              }
            }}
          />
          <div className="conversation-actions">
            <button type="submit" className="button button-small button-primary" data-testid="conversation-rename-save">
              Save
            </button>
            <button
              type="button"
              className="button button-small"
              onClick={() => {
                setTitle(conversation.title);
                close();
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <button
            type="button"
            className="conversation-item"
            data-testid="conversation-item"
            aria-current={current ? 'page' : undefined}
            onClick={() => {
              openConversation(conversation.id);
              document.getElementById('composer-input')?.focus();
            }}
          >
            <span className="conversation-title">{label}</span>
            <time className="conversation-time" dateTime={new Date(conversation.updatedAt).toISOString()}>
              {new Date(conversation.updatedAt).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })}
            </time>
          </button>
          <div className="conversation-actions">
            <button
              type="button"
              ref={opener('rename')}
              className="link-button"
              data-testid="conversation-rename"
              aria-label={`Rename “${label}”`}
              onClick={() => {
                setTitle(conversation.title);
                open('rename');
              }}
            >
              Rename
            </button>
            <button
              type="button"
              ref={opener('delete')}
              className="link-button link-button-danger"
              data-testid="conversation-delete"
              aria-label={`Delete “${label}”`}
              onClick={() => open('delete')}
            >
              Delete
            </button>
          </div>
          {mode === 'delete' && (
            <ConfirmQuestion
              className="conversation-delete-question"
              role="group"
              aria-label={`Delete “${label}”?`}
              data-testid="conversation-delete-question"
              actionsClassName="conversation-actions"
              keep={{ label: 'Keep' }}
              // While a turn runs there, only Keep is offered.
              confirm={busy ? undefined : { label: 'Delete', testId: 'conversation-delete-confirm' }}
              onKeep={close}
              onConfirm={() =>
                void deleteConversation(conversation.id).then((deleted) => {
                  if (!deleted) close();
                })
              }
            >
              <p>
                {busy
                  ? 'A turn is running in this conversation: stop it before deleting.'
                  : `Delete “${label}” and its whole history? This cannot be undone.`}
              </p>
            </ConfirmQuestion>
          )}
        </>
      )}
    </li>
  );
}
