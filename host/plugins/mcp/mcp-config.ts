import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The name of the config file in the data folder (Claude Desktop's and Cursor's shape). */
export const MCP_CONFIG_FILE_NAME = 'mcp.json';

/** A server's name: letters, digits and `-`, at most 40 characters (its plugin is `mcp-NAME`). */
const SERVER_NAME = /^[A-Za-z0-9-]{1,40}$/;

/** How a server is reached, as the config gives it (values may still hold `${VAR}`). */
export type McpServerTransport =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string>; oauth?: McpHttpOAuth };

/** OAuth 2.1 of a Streamable HTTP server, as mcp.json may name it: a pre-registered client (its secret as `${VAR}`) and scopes. */
export interface McpHttpOAuth {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
}

/** One configured server, read and checked (not yet expanded: `${VAR}` is read when it starts). */
export interface McpServerConfig {
  /** The name in `mcpServers`. */
  name: string;
  /** `mcp-NAME`: the plugin that offers its tools. */
  pluginName: string;
  transport: McpServerTransport;
}

/** What a config file gave: the servers that can be started, and what was refused, each saying why. */
export interface McpConfig {
  /** Where it was read from (absent when there was no file). */
  file?: string;
  servers: McpServerConfig[];
  /** Entries refused and problems of the whole file, each a sentence naming the entry and what to do. */
  problems: string[];
  /** Why the whole file could not be used (not JSON, not an MCP config), naming it: a file followed live keeps its last good servers. */
  unusable?: string;
}

/** A config file that must be read (`--mcp-config FILE`) could not be: the message says why. */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

const stringMap = z.record(z.string(), z.string({ error: 'must be a string' }));

const stdioEntry = z.object({
  type: z.literal('stdio').optional(),
  command: z.string({ error: 'is missing: give the program to start' }).min(1, 'is empty: give the program to start'),
  args: z.array(z.string({ error: 'must be a string' })).optional(),
  env: stringMap.optional(),
  cwd: z.string().min(1).optional(),
});

const httpEntry = z.object({
  type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' }),
  headers: stringMap.optional(),
  clientId: z
    .string()
    .min(1, 'is empty: give the client ID the server registered for Home Agent')
    .max(1_000)
    .optional(),
  clientSecret: z
    .string()
    .regex(
      /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/,
      'must name an environment variable that holds it, as ${NAME}, never the secret itself',
    )
    .optional(),
  scopes: z
    .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,200}$/, 'must be an OAuth scope (no spaces)'))
    .max(50)
    .optional(),
});

const fileSchema = z.object(
  { mcpServers: z.record(z.string(), z.unknown(), { error: 'mcpServers must be an object of servers' }) },
  { error: 'the file must be a JSON object with "mcpServers"' },
);

/**
 * Reads an MCP config: `{"mcpServers": {"NAME": {"command", "args", "env"} | {"url", "headers"}}}`.
 * Without `required`, a missing file is no servers, and a broken one is a problem (the app still
 * starts); with it (`--mcp-config FILE`), either is a McpConfigError. A refused entry never stops
 * the others: it is listed in `problems`.
 */
export function readMcpConfig(options: { file: string; required: boolean }): McpConfig {
  const file = path.resolve(options.file);
  if (!existsSync(file)) {
    if (options.required) throw new McpConfigError(`${file}: no such file (give the path of an MCP config)`);
    return { servers: [], problems: [] };
  }
  let text: string;
  let raw: unknown;
  try {
    text = readFileSync(file, 'utf8');
    raw = JSON.parse(text);
  } catch (error) {
    return unusableFile({
      file,
      why: `could not be read as JSON (${withoutQuote(error)})`,
      required: options.required,
    });
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success)
    return unusableFile({
      file,
      why: parsed.error.issues[0]?.message ?? 'not an MCP config',
      required: options.required,
    });
  const servers: McpServerConfig[] = [];
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(parsed.data.mcpServers)) {
    const read = readEntry(name, entry);
    if ('problem' in read) problems.push(`${file}: ${read.problem}`);
    else servers.push(read);
  }
  return { file, servers, problems };
}

/**
 * The MCP config of a run: `file` (`--mcp-config`), which must be readable, else the data folder's
 * `mcp.json` if there is one.
 */
export function mcpConfigOf(options: { dataDir: string; file: string | undefined }): McpConfig {
  return options.file !== undefined
    ? readMcpConfig({ file: options.file, required: true })
    : readMcpConfig({ file: path.join(options.dataDir, MCP_CONFIG_FILE_NAME), required: false });
}

/** A file that cannot be used at all: a McpConfigError when it must be read, else no servers and why. */
function unusableFile(options: { file: string; why: string; required: boolean }): McpConfig {
  const unusable = `${options.file}: ${options.why}`;
  const message = `${unusable}; no MCP server was started from it`;
  if (options.required) throw new McpConfigError(message);
  return { file: options.file, servers: [], problems: [message], unusable };
}

function readEntry(name: string, entry: unknown): McpServerConfig | { problem: string } {
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  if (!SERVER_NAME.test(name))
    return {
      problem: `the server ${shown} was refused: a name has 1 to 40 letters, digits or '-' (it becomes the plugin mcp-NAME and part of every tool name)`,
    };
  const refused = (why: string): { problem: string } => ({ problem: `the server ${shown} was refused: ${why}` });
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return refused('give {"command", "args", "env"} or {"url", "headers"}');
  const fields = entry as Record<string, unknown>;
  if (fields.type === 'sse')
    return refused('the old HTTP+SSE transport is not supported; give the server’s Streamable HTTP address instead');
  if ('command' in fields && 'url' in fields)
    return refused('give "command" (a program to start) or "url" (Streamable HTTP), not both');
  const pluginName = `mcp-${name}`;
  if ('url' in fields) {
    const http = httpEntry.safeParse(fields);
    if (!http.success) return refused(describeIssues(http.error));
    const { clientId, clientSecret, scopes } = http.data;
    if (clientSecret !== undefined && clientId === undefined)
      return refused('clientSecret is given without clientId: give the pre-registered client’s ID too');
    const oauth: McpHttpOAuth = {
      ...(clientId !== undefined ? { clientId } : {}),
      ...(clientSecret !== undefined ? { clientSecret } : {}),
      ...(scopes !== undefined ? { scopes } : {}),
    };
    return {
      name,
      pluginName,
      transport: {
        kind: 'http',
        url: http.data.url,
        headers: http.data.headers ?? {},
        ...(Object.keys(oauth).length > 0 ? { oauth } : {}),
      },
    };
  }
  const stdio = stdioEntry.safeParse(fields);
  if (!stdio.success) return refused(describeIssues(stdio.error));
  return {
    name,
    pluginName,
    transport: {
      kind: 'stdio',
      command: stdio.data.command,
      args: stdio.data.args ?? [],
      env: stdio.data.env ?? {},
      ...(stdio.data.cwd !== undefined ? { cwd: stdio.data.cwd } : {}),
    },
  };
}

/**
 * A read or parse error without the piece of the file V8 quotes in some JSON errors (`…"API_KEY":
 * sk-live-ab"… is not valid JSON`): a secret written into the file must not reach the log.
 */
function withoutQuote(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/su, ' (where JSON was expected)');
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')} ${issue.message}` : issue.message))
    .join('; ');
}
