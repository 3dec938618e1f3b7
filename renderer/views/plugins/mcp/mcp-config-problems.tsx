/** The problems of the MCP config (an unreadable file, a refused server), each saying what to do. */
export function McpConfigProblems(props: { problems: readonly string[] }) {
  return (
    <ul className="side-error" aria-label="Problems of the MCP config" data-testid="mcp-config-problems">
      {props.problems.map((problem) => (
        <li key={problem}>{problem}</li>
      ))}
    </ul>
  );
}
