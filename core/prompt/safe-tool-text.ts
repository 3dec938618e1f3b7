import { safeLines } from '../text/safe-text.ts';
import type { JsonSchema } from '../tools/json-schema.ts';

/**
 * The tool as a model is shown it (ours, or an MCP client's): its description and every description
 * in its parameters pass through `safeLines` (lines stay; controls, bidi and zero-width characters
 * become escapes). Names, enums and the rest are what the tool checks calls against, so they stay
 * as they are (devices may not declare unsafe ones: see `jsonSchemaSchema`). The same tool comes
 * back when nothing changes.
 */
export function safeToolText<T extends { description: string; parameters: JsonSchema }>(tool: T): T {
  const description = safeLines(tool.description);
  const parameters = safeSchemaText(tool.parameters);
  if (description === tool.description && parameters === tool.parameters) return tool;
  return { ...tool, description, parameters };
}

function safeSchemaText(schema: JsonSchema): JsonSchema {
  const description = schema.description === undefined ? undefined : safeLines(schema.description);
  const entries = Object.entries(schema.properties ?? {});
  const properties = entries.map(([name, property]) => [name, safeSchemaText(property)] as const);
  const items = schema.items === undefined ? undefined : safeSchemaText(schema.items);
  const changed =
    description !== schema.description ||
    items !== schema.items ||
    properties.some(([, property], index) => property !== entries[index]![1]);
  if (!changed) return schema;
  return {
    ...schema,
    ...(description !== undefined ? { description } : {}),
    ...(schema.properties !== undefined ? { properties: Object.fromEntries(properties) } : {}),
    ...(items !== undefined ? { items } : {}),
  };
}
