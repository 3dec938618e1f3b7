/** One turn of a format whose roles alternate: its role and its parts, in order. */
export interface RoleTurn<Role extends string, Part> {
  role: Role;
  parts: Part[];
}

/**
 * For formats that require roles to alternate (Anthropic, Gemini): parts added for the role of the
 * turn before join that turn instead of starting another; empty part lists add nothing.
 */
export function sameRoleTurns<Role extends string, Part>(): {
  turns: RoleTurn<Role, Part>[];
  add(role: Role, parts: Part[]): void;
} {
  const turns: RoleTurn<Role, Part>[] = [];
  return {
    turns,
    add(role, parts) {
      if (parts.length === 0) return;
      const last = turns[turns.length - 1];
      if (last && last.role === role) last.parts.push(...parts);
      else turns.push({ role, parts });
    },
  };
}
