/** How long one tool call may run, in ms, unless the tool or the setting toolTimeoutMs says otherwise. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;
