import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { safeToolText } from '../../../core/prompt/safe-tool-text.ts';
import type { ToolDeclaration } from '../../../core/tools/tool-definition.ts';

/**
 * A tool as an MCP client is shown it: name, description, the JSON Schema of its arguments (the
 * descriptions a device wrote pass through the one text rule, as in our own prompt), and
 * annotations from its declaration, both set explicitly (false included) so no client falls back to
 * the spec's defaults: `readOnlyHint` = `readOnly` (a lamp's `get`, never its `set`);
 * `destructiveHint` = `needsApproval` (a person approves each call: a relay that may switch mains).
 */
export function servedTool(tool: ToolDeclaration): Tool {
  const declaration = safeToolText(tool);
  return {
    name: declaration.name,
    description: declaration.description,
    inputSchema: { ...declaration.parameters, type: 'object' } as Tool['inputSchema'],
    annotations: { readOnlyHint: declaration.readOnly, destructiveHint: declaration.needsApproval },
  };
}
