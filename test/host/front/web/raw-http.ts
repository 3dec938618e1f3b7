import net from 'node:net';

/** One HTTP/1.1 exchange written byte for byte (no client normalises the path or the headers). */
export async function rawRequest(options: {
  port: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  localAddress?: string;
}): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers: Record<string, string> = {
    host: `127.0.0.1:${options.port}`,
    connection: 'close',
    ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
    ...options.headers,
  };
  const head = [
    `${options.method ?? 'GET'} ${options.path} HTTP/1.1`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  const socket = net.connect({
    port: options.port,
    host: '127.0.0.1',
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
  socket.write(`${head}\r\n\r\n${options.body ?? ''}`);
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve());
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  const text = Buffer.concat(chunks).toString('utf8');
  const [headText = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = headText.split('\r\n');
  const responseHeaders: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) responseHeaders[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const raw = rest.join('\r\n\r\n');
  const body = responseHeaders['transfer-encoding'] === 'chunked' ? dechunk(raw) : raw;
  return { status: Number(statusLine.split(' ')[1]), headers: responseHeaders, body };
}

/** The payload of a chunked body (`<hex size>\r\n<data>\r\n` … `0\r\n\r\n`). */
function dechunk(raw: string): string {
  let body = '';
  let rest = raw;
  for (;;) {
    const end = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, end), 16);
    if (!(size > 0)) return body;
    body += rest.slice(end + 2, end + 2 + size);
    rest = rest.slice(end + 2 + size + 2);
  }
}
