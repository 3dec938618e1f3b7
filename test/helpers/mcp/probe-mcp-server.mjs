// A small MCP server over stdio, built on the SDK's own Server, for what server-everything cannot
// show: declarations read from a file (changed between listings, too many, too deep, colliding),
// a call that waits until it is cancelled, oversized or deep answers, floods, and an exit mid-call;
// a question to the person with defaults (`ask`), and progress notifications (`progress`).
// Usage: node probe-mcp-server.mjs DECLARATIONS.json (a file {"tools": [...], "endlessCursor"?: true,
// "stderrAtStart"?: "text"}); every tools/list writes "listed" to stderr, cancellations "cancelled ID".
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const file = process.argv[2];
const read = () => (file ? JSON.parse(readFileSync(file, 'utf8')) : { tools: [] });
let declarations = read();
if (declarations.stderrAtStart) process.stderr.write(`${declarations.stderrAtStart}\n`);

const server = new Server({ name: 'probe', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });

server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  process.stderr.write('listed\n');
  const cursor = request.params?.cursor;
  if (declarations.endlessCursor) return { tools: [], nextCursor: `${Number(cursor ?? 0) + 1}` };
  return { tools: declarations.tools };
});

/** The form `ask` puts to the person: every kind of field, each with a default. */
const ASK_FORM = {
  type: 'object',
  properties: {
    room: {
      type: 'string',
      title: 'Room',
      enum: ['hall', 'kitchen'],
      enumNames: ['Hall', 'Kitchen'],
      default: 'kitchen',
    },
    brightness: { type: 'integer', title: 'Brightness', minimum: 0, maximum: 100, default: 40 },
    fade: { type: 'boolean', title: 'Fade', default: true },
    note: { type: 'string', title: 'Note', default: 'evening' },
    lamps: {
      type: 'array',
      title: 'Lamps',
      items: { type: 'string', enum: ['desk', 'ceiling', 'floor'] },
      default: ['desk'],
    },
  },
  required: ['room', 'brightness'],
};

const text = (value) => ({
  content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
});

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name } = request.params;
  const args = request.params.arguments ?? {};
  switch (name) {
    case 'wait':
      process.stderr.write(`started ${extra.requestId}\n`);
      return new Promise((resolve) => {
        const cancelled = () => {
          clearTimeout(timer);
          process.stderr.write(`cancelled ${extra.requestId}\n`);
          resolve(text('cancelled'));
        };
        const timer = setTimeout(() => resolve(text('waited')), Number(args.ms ?? 600_000));
        // The cancellation may have been read in the same chunk as the request, before this ran.
        if (extra.signal.aborted) cancelled();
        else extra.signal.addEventListener('abort', cancelled);
      });
    case 'echo':
      return text(args);
    case 'ask':
      // A question to the person during the call, with defaults; "answered JSON" or "withdrawn" on stderr.
      try {
        const answer = await server.elicitInput(
          { message: String(args.message ?? 'How should the lamps be set?'), requestedSchema: ASK_FORM },
          { signal: extra.signal },
        );
        process.stderr.write(`answered ${JSON.stringify(answer)}\n`);
        return text(answer);
      } catch (error) {
        process.stderr.write(`withdrawn ${error.message}\n`);
        return text('withdrawn');
      }
    case 'progress': {
      // `steps` progress notifications at once ("step N of STEPS"), then "progressed" on stderr, then waits until cancelled.
      const token = request.params._meta?.progressToken;
      const steps = Number(args.steps ?? 3);
      for (let step = 1; step <= steps && token !== undefined; step += 1)
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, total: steps, message: `step ${step} of ${steps}` },
        });
      process.stderr.write(`progressed ${token === undefined ? 'without a token' : steps}\n`);
      return new Promise((resolve) => {
        const done = () => resolve(text('stopped'));
        if (extra.signal.aborted) done();
        else extra.signal.addEventListener('abort', done);
      });
    }
    case 'fail':
      return { content: [{ type: 'text', text: String(args.why ?? 'it failed') }], isError: true };
    case 'env':
      return text(Object.fromEntries(Object.entries(process.env).filter(([key]) => (args.names ?? []).includes(key))));
    case 'throw':
      // A JSON-RPC error (not a result), its message as long as asked.
      throw new McpError(ErrorCode.InternalError, `${args.prefix ?? ''}${'z'.repeat(Number(args.bytes ?? 0))}`);
    case 'big':
      return text('x'.repeat(Number(args.bytes)));
    case 'deep': {
      let value = { leaf: true };
      for (let level = 0; level < Number(args.depth); level += 1) value = { inner: value };
      return { content: [{ type: 'text', text: 'deep' }], structuredContent: value };
    }
    case 'reload':
      declarations = read();
      await server.sendToolListChanged();
      return text('reloaded');
    case 'notify-flood':
      for (let count = 0; count < Number(args.count); count += 1) await server.sendToolListChanged();
      return text('flooded');
    case 'stderr-flood': {
      const chunk = 'e'.repeat(1023) + '\n';
      for (let written = 0; written < Number(args.bytes); written += chunk.length) process.stderr.write(chunk);
      process.stderr.write(`${args.last ?? 'the end'}\n`);
      return text('flooded stderr');
    }
    case 'huge-line':
      // Past the client's message bound, without a newline: the client must drop the connection.
      process.stdout.write(
        `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${'y'.repeat(Number(args.bytes))}`,
      );
      return new Promise(() => {});
    case 'exit':
      process.stderr.write('exiting mid-call\n');
      process.exit(3);
      break;
    default:
      // A tool declared `vanished` is listed but answered as unknown, like a server whose tools changed.
      if ((declarations.tools ?? []).some((tool) => tool.name === name && !tool.vanished)) return text(`ran ${name}`);
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  }
});

await server.connect(new StdioServerTransport());
