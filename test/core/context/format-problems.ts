/**
 * What a wire format's server would refuse in a request body, checked against each format's own
 * rules as their documentation states them (written here, not read from the adapters): OpenAI and
 * Ollama want the person's message first after the system prompt and every `tool` message answering
 * a call of the assistant message before it, every call answered; Anthropic and Gemini want roles
 * to alternate from the person's, and each reply's calls answered in the next message by id.
 */
export function formatProblems(
  format: 'openai' | 'ollama' | 'anthropic' | 'gemini',
  body: Record<string, unknown>,
): string[] {
  if (format === 'openai' || format === 'ollama') return chatProblems(body);
  if (format === 'anthropic')
    return alternatingProblems({
      turns: (body.messages as { role: string; content: Record<string, unknown>[] }[]).map((message) => ({
        role: message.role,
        calls: message.content.filter((block) => block.type === 'tool_use').map((block) => block.id as string),
        results: message.content
          .filter((block) => block.type === 'tool_result')
          .map((block) => block.tool_use_id as string),
      })),
      modelRole: 'assistant',
    });
  return alternatingProblems({
    turns: (body.contents as { role: string; parts: Record<string, unknown>[] }[]).map((content) => ({
      role: content.role,
      calls: content.parts.filter((part) => part.functionCall).map((part) => (part.functionCall as { id: string }).id),
      results: content.parts
        .filter((part) => part.functionResponse)
        .map((part) => (part.functionResponse as { id: string }).id),
    })),
    modelRole: 'model',
  });
}

function chatProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const messages = body.messages as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
  const afterSystem = messages[0]?.role === 'system' ? messages.slice(1) : messages;
  if (afterSystem[0]?.role !== 'user')
    problems.push(`the first message after the system prompt is ${afterSystem[0]?.role ?? 'missing'}`);
  let open: string[] = [];
  for (const [position, message] of afterSystem.entries()) {
    if (message.role === 'tool') {
      if (!open.includes(message.tool_call_id ?? ''))
        problems.push(`message ${position} answers ${message.tool_call_id}, not a call just made`);
      open = open.filter((id) => id !== message.tool_call_id);
      continue;
    }
    // A user message of a result run's images may follow the results.
    if (message.role === 'user' && open.length === 0 && afterSystem[position - 1]?.role === 'tool') continue;
    if (open.length > 0) problems.push(`calls ${open.join(', ')} are not answered before message ${position}`);
    open = message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [];
  }
  if (open.length > 0) problems.push(`calls ${open.join(', ')} are never answered`);
  return problems;
}

function alternatingProblems(options: {
  turns: { role: string; calls: string[]; results: string[] }[];
  modelRole: string;
}): string[] {
  const problems: string[] = [];
  const { turns, modelRole } = options;
  if (turns[0]?.role !== 'user') problems.push(`the first message is ${turns[0]?.role ?? 'missing'}`);
  turns.forEach((turn, position) => {
    const previous = turns[position - 1];
    if (previous && previous.role === turn.role)
      problems.push(`messages ${position - 1} and ${position} are both ${turn.role}`);
    const asked = previous?.role === modelRole ? previous.calls : [];
    for (const id of turn.results)
      if (!asked.includes(id)) problems.push(`message ${position} answers ${id}, not a call just made`);
    if (turn.role === modelRole && turn.calls.length > 0) {
      const next = turns[position + 1];
      const missing = turn.calls.filter((id) => !next?.results.includes(id));
      if (missing.length > 0) problems.push(`calls ${missing.join(', ')} of message ${position} are not answered next`);
    }
  });
  return problems;
}
