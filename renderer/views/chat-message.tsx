/** One bubble of the chat: the person's message or the assistant's text (with a caret while it streams). */
export function ChatMessage(props: { role: 'user' | 'assistant'; text: string; streaming?: boolean }) {
  return (
    <div className={`chat-message chat-message-${props.role}`} data-testid="chat-message" data-role={props.role}>
      <div className="chat-message-text">
        {props.text}
        {props.streaming && <span className="caret" aria-hidden="true" />}
      </div>
    </div>
  );
}
