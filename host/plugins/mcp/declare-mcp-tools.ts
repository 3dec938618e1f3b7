import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema } from '../../../core/tools/json-schema.ts';
import { canonicalJson } from '../../../core/agent/canonical-json.ts';
import { cutToolSchema, MAX_DESCRIPTION_CHARACTERS, MAX_SCHEMA_NESTING } from './cut-tool-schema.ts';
import { mcpToolName } from './mcp-tool-name.ts';
import { unsafeSchemaName } from './server-text.ts';

/** Tools kept of one server: a server that lists more cannot make every prompt (and the host) carry them all. */
export const MAX_TOOLS_PER_SERVER = 64;

/** Characters of a tool's own name: past this it is left out (its name is stored and hashed). */
export const MAX_TOOL_NAME_CHARACTERS = 1_000;

/**
 * Levels a declaration may nest at all: hashing and storing walk it recursively, so a deeper one is
 * left out before anything recursive touches it. (Schemas are cut to 64 levels; this is the hard stop.)
 */
export const MAX_DECLARATION_NESTING = 256;

/** One tool of a server as the host offers it: bounded, checked, with the hash of what the server said. */
export interface McpToolDeclaration {
  /** The server's own name of the tool (what a call sends). */
  original: string;
  /** `mcp__SERVER__TOOL`, made safe and at most 64 characters. */
  name: string;
  description: string;
  parameters: JsonSchema;
  /** The server's `readOnlyHint` (a hint: it counts only once the person trusts the server). */
  readOnlyHint: boolean;
  /** SHA-256 of the declaration as the server sent it (name, title, description, schemas, annotations). */
  hash: string;
}

/**
 * A server's listing turned into declarations within the budgets: the first 64 tools, names of at
 * most 1,000 characters, declarations nested at most 256 levels, descriptions cut at 2,000
 * characters, schemas cut to the subset the kernel knows and to 64 levels, and no name in a schema
 * (property, enum value) holding a character that would act instead of being read. What was left
 * out or cut is said in `warnings`, naming the tool.
 */
export function declareMcpTools(options: { server: string; plugin: string; tools: readonly Tool[] }): {
  tools: McpToolDeclaration[];
  warnings: string[];
} {
  const warnings: string[] = [];
  if (options.tools.length > MAX_TOOLS_PER_SERVER)
    warnings.push(
      `${options.plugin} lists more than ${MAX_TOOLS_PER_SERVER} tools; only the first ${MAX_TOOLS_PER_SERVER} are offered`,
    );
  const tools: McpToolDeclaration[] = [];
  const seen = new Set<string>();
  for (const tool of options.tools.slice(0, MAX_TOOLS_PER_SERVER)) {
    const shown = JSON.stringify(tool.name.length > 80 ? `${tool.name.slice(0, 80)}…` : tool.name);
    if (tool.name.length === 0 || tool.name.length > MAX_TOOL_NAME_CHARACTERS) {
      warnings.push(
        `${options.plugin}: the tool ${shown} is left out: a tool's name has 1 to ${MAX_TOOL_NAME_CHARACTERS} characters`,
      );
      continue;
    }
    if (seen.has(tool.name)) {
      warnings.push(`${options.plugin}: the tool ${shown} is listed twice; only the first is offered`);
      continue;
    }
    seen.add(tool.name);
    const said = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
    };
    if (nestingExceeds(said, MAX_DECLARATION_NESTING)) {
      warnings.push(
        `${options.plugin}: the tool ${shown} is left out: its declaration nests more than ${MAX_DECLARATION_NESTING} levels`,
      );
      continue;
    }
    const { schema, cut } = cutToolSchema(tool.inputSchema);
    const unsafe = unsafeSchemaName(schema);
    if (unsafe !== undefined) {
      warnings.push(`${options.plugin}: the tool ${shown} is left out: ${unsafe}`);
      continue;
    }
    if (cut)
      warnings.push(
        `${options.plugin}: the schema of ${shown} nests more than ${MAX_SCHEMA_NESTING} levels; the deeper parts accept any value`,
      );
    const description = tool.description ?? tool.title ?? '';
    tools.push({
      original: tool.name,
      name: mcpToolName({ server: options.server, tool: tool.name }),
      description:
        description.length > MAX_DESCRIPTION_CHARACTERS
          ? description.slice(0, MAX_DESCRIPTION_CHARACTERS)
          : description,
      parameters: schema,
      readOnlyHint: tool.annotations?.readOnlyHint === true,
      hash: createHash('sha256').update(canonicalJson(said), 'utf8').digest('hex'),
    });
  }
  return { tools, warnings };
}

/** Whether a JSON value opens more than `limit` levels of objects and arrays; a loop, never recursion. */
export function nestingExceeds(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item))
      stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
