import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { elicitationDefaultsOf } from '../../contract/elicitation-content.ts';

/** The form a server asks its person to fill in during a call (`elicitation/create`, form mode). */
export type McpElicitationSchema = ElicitRequestFormParams['requestedSchema'];

/** One value of an answered form: what the form's fields can hold. */
export type McpElicitationValue = string | number | boolean | string[];

/** A server's question to the person, as their front end is given it. */
export interface McpElicitationRequest {
  /** The plugin of the server that asks (`mcp-NAME`): the form is shown as that server's. */
  plugin: string;
  /** The server's own words above the form. */
  message: string;
  requestedSchema: McpElicitationSchema;
  /** The form's first values: the schema's defaults (SEP-1034). */
  defaults: Record<string, McpElicitationValue>;
  /** Aborts when the server withdraws its question (it cancelled it, as after Stop, or the connection closed). */
  signal: AbortSignal;
}

/** What the person did with the form. */
export type McpElicitationAnswer =
  { action: 'accept'; content: Record<string, McpElicitationValue> } | { action: 'decline' } | { action: 'cancel' };

/**
 * The person's front end for a server's question: only a person answers one, never the model.
 * Without a front end able to show a form, the question is declined.
 */
export type McpElicitationFrontEnd = (request: McpElicitationRequest) => Promise<McpElicitationAnswer>;

/** No front end can show a form: every question is declined (the model never answers one). */
export const declineElicitation: McpElicitationFrontEnd = () => Promise.resolve({ action: 'decline' });

/** The most fields a form may have (declared with the form the window is given). */
export { MAX_ELICITATION_FIELDS } from '../../contract/elicitation-contract.ts';

/**
 * An accepted answer as the server is sent it: each field the person left out that has a default
 * holds that default (SEP-1034); the fields they gave are kept as given.
 */
export function withElicitationDefaults(
  schema: McpElicitationSchema,
  content: Record<string, McpElicitationValue>,
): Record<string, McpElicitationValue> {
  const filled: Record<string, McpElicitationValue> = { ...elicitationDefaultsOf(schema) };
  for (const [key, value] of Object.entries(content)) if (value !== undefined) filled[key] = value;
  return filled;
}
