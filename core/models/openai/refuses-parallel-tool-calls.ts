/**
 * True for OpenAI's reasoning models (o1, o3, o3-mini, o4-mini, their `-mini`/`-pro`/`-preview`
 * and dated variants: a name that is `o` and a number, alone or before a `-`), which answer HTTP
 * 400 to a request that carries `parallel_tool_calls` at all. A routing prefix (`openai/o3-mini` on
 * OpenRouter) is ignored. Other models that refuse it are learnt from their 400 (`RefusedParameters`).
 */
export function refusesParallelToolCalls(model: string): boolean {
  const name = model.slice(model.lastIndexOf('/') + 1).toLowerCase();
  return /^o\d+(?:-|$)/.test(name);
}
