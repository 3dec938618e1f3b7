/**
 * One message of the chat, saying who speaks: the person's (or, for a turn an MCP client asked for,
 * that client's, by its name), or the assistant's (with a caret while it streams).
 */
export function ChatMessage(props: { role: 'user' | 'assistant'; text: string; streaming?: boolean; by?: string }) {
  return (
    <div className={`chat-message chat-message-${props.role}`}>
      <span className="chat-speaker">{props.role === 'user' ? (props.by ?? 'You') : 'Home Agent'}</span>
      <div className="chat-message-text" data-testid="chat-message" data-role={props.role}>
        {props.text}
        {props.streaming && <span className="caret" aria-hidden="true" />}
      </div>
    </div>
  );
}
