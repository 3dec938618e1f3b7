/** The single rest entry of `toolOrder`: unlisted tools go here, lexicographic among themselves. */
export const TOOL_ORDER_REST = '<unlisted-tools>';

/** A `toolOrder` that can never be satisfied, or a tool list it cannot order. */
export class ToolOrderError extends Error {
  override readonly name = 'ToolOrderError';
}

/** Plain lexicographic comparison by UTF-16 code unit, independent of locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Checks the shape of a `toolOrder` policy: exactly one rest entry, no duplicate names.
 * Called when the prompt service is constructed, so a bad shape fails at start-up.
 */
export function assertToolOrderShape(toolOrder: readonly string[]): void {
  const rest = toolOrder.filter((name) => name === TOOL_ORDER_REST).length;
  if (rest !== 1) {
    throw new ToolOrderError(
      rest === 0
        ? `toolOrder must contain the rest entry '${TOOL_ORDER_REST}' exactly once (it has none): add it where unlisted tools should go`
        : `toolOrder must contain the rest entry '${TOOL_ORDER_REST}' exactly once (it has ${rest})`,
    );
  }
  const seen = new Set<string>();
  for (const name of toolOrder) {
    if (seen.has(name)) throw new ToolOrderError(`toolOrder names '${name}' twice: each tool may be listed once`);
    seen.add(name);
  }
}

/**
 * Puts tools into the authoritative model-side order (seed 000). Listed tools take their listed
 * place; unlisted tools go where `TOOL_ORDER_REST` stands, lexicographic among themselves; no
 * `toolOrder` means plain lexicographic. A listed name with no tool, or a tool named like the
 * sentinel, throws: the turn fails at assembly. Registration order is never observable.
 */
export function orderTools<T extends { name: string }>(tools: readonly T[], toolOrder?: readonly string[]): T[] {
  if (tools.some((tool) => tool.name === TOOL_ORDER_REST)) {
    throw new ToolOrderError(
      `a tool is named '${TOOL_ORDER_REST}', the reserved rest entry of toolOrder: rename the tool`,
    );
  }
  const lexicographic = [...tools].sort((a, b) => compareCodeUnits(a.name, b.name));
  if (toolOrder === undefined) return lexicographic;
  assertToolOrderShape(toolOrder);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const missing = toolOrder.filter((name) => name !== TOOL_ORDER_REST && !byName.has(name));
  if (missing.length > 0) {
    throw new ToolOrderError(
      `toolOrder lists ${missing.map((name) => `'${name}'`).join(', ')}, but no enabled plugin provides ${missing.length === 1 ? 'that tool' : 'those tools'}: fix the name, enable the plugin, or remove it from toolOrder`,
    );
  }
  const listed = new Set(toolOrder);
  const unlisted = lexicographic.filter((tool) => !listed.has(tool.name));
  const ordered: T[] = [];
  for (const name of toolOrder) {
    if (name === TOOL_ORDER_REST) ordered.push(...unlisted);
    else ordered.push(byName.get(name) as T);
  }
  return ordered;
}
