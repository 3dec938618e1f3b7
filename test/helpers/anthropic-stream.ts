/** Test shorthand: Anthropic Messages stream events (SSE), as the real API sends them (docs: streaming). */
function sse(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** `message_start`. */
export function anthropicStart(): string {
  return sse('message_start', {
    message: { id: 'msg_loopback', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 12 } },
  });
}

/** A whole text block at `index`. */
export function anthropicText(index: number, text: string): string {
  return (
    sse('content_block_start', { index, content_block: { type: 'text', text: '' } }) +
    sse('content_block_delta', { index, delta: { type: 'text_delta', text } }) +
    sse('content_block_stop', { index })
  );
}

/** The start of a `tool_use` block and its arguments in two `input_json_delta` halves, without its stop. */
export function anthropicToolOpen(call: { index: number; id: string; name: string; args: object }): string {
  const json = JSON.stringify(call.args);
  const half = Math.ceil(json.length / 2);
  return (
    sse('content_block_start', {
      index: call.index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    }) +
    sse('content_block_delta', {
      index: call.index,
      delta: { type: 'input_json_delta', partial_json: json.slice(0, half) },
    }) +
    sse('content_block_delta', {
      index: call.index,
      delta: { type: 'input_json_delta', partial_json: json.slice(half) },
    })
  );
}

/** `content_block_stop` for the block at `index`: the wire says that call is complete. */
export function anthropicBlockStop(index: number): string {
  return sse('content_block_stop', { index });
}

/** `message_delta` with the stop reason, then `message_stop`: the reply is whole. */
export function anthropicEnd(stopReason = 'tool_use'): string {
  return (
    sse('message_delta', { delta: { stop_reason: stopReason }, usage: { output_tokens: 40 } }) + sse('message_stop', {})
  );
}
