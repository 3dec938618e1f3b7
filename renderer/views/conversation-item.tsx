import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ConversationSummary } from '../../host/contract/api-contract.ts';
import { useAppStore } from './use-app-store.ts';

type Mode = 'view' | 'rename' | 'delete';

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
  const [mode, setMode] = useState<Mode>('view');
  const [title, setTitle] = useState(conversation.title);
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<'rename' | 'delete' | null>(null);
  const label = conversation.title || 'Untitled';

  useEffect(() => {
    if (mode !== 'view' || returnFocus.current === null) return;
    (returnFocus.current === 'rename' ? renameButton : deleteButton).current?.focus();
    returnFocus.current = null;
  }, [mode]);

  function leave(from: 'rename' | 'delete'): void {
    returnFocus.current = from;
    setMode('view');
  }

  async function saveTitle(event: FormEvent): Promise<void> {
    event.preventDefault();
    const trimmed = title.trim();
    if (trimmed === '' || trimmed === conversation.title) return leave('rename');
    if (await renameConversation(conversation.id, trimmed)) leave('rename');
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
                leave('rename');
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
                leave('rename');
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
              ref={renameButton}
              className="link-button"
              data-testid="conversation-rename"
              aria-label={`Rename “${label}”`}
              onClick={() => {
                setTitle(conversation.title);
                setMode('rename');
              }}
            >
              Rename
            </button>
            <button
              type="button"
              ref={deleteButton}
              className="link-button link-button-danger"
              data-testid="conversation-delete"
              aria-label={`Delete “${label}”`}
              onClick={() => setMode('delete')}
            >
              Delete
            </button>
          </div>
          {mode === 'delete' && (
            <DeleteQuestion
              label={label}
              busy={busy}
              onKeep={() => leave('delete')}
              onDelete={async () => {
                if (!(await deleteConversation(conversation.id))) leave('delete');
              }}
            />
          )}
        </>
      )}
    </li>
  );
}

/** "Delete … and its history?": Keep takes the focus; while a turn runs there, only Keep is offered. */
function DeleteQuestion(props: { label: string; busy: boolean; onKeep: () => void; onDelete: () => Promise<void> }) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <div
      className="conversation-delete-question"
      role="group"
      aria-label={`Delete “${props.label}”?`}
      data-testid="conversation-delete-question"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          props.onKeep();
        }
      }}
    >
      <p>
        {props.busy
          ? 'A turn is running in this conversation: stop it before deleting.'
          : `Delete “${props.label}” and its whole history? This cannot be undone.`}
      </p>
      <div className="conversation-actions">
        <button type="button" ref={keep} className="button button-small" onClick={props.onKeep}>
          Keep
        </button>
        {!props.busy && (
          <button
            type="button"
            className="button button-small button-danger"
            data-testid="conversation-delete-confirm"
            onClick={() => void props.onDelete()}
          >
            Delete
          </button>
        )}
      </div>
    </div>
  );
}
