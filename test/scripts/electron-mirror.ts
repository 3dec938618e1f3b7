// A loopback Electron mirror for ELECTRON_MIRROR: serves files at `/<tag>/<name>` the way
// @electron/get asks for them (`${mirror}v41.7.1/electron-v41.7.1-linux-x64.zip` and, with remote
// checksums, `${mirror}v41.7.1/SHASUMS256.txt`), 404 for anything else, and records each request.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

export type ElectronMirror = { url: string; requests: string[]; close(): Promise<void> };

/** Starts the mirror on 127.0.0.1 with `files` (URL path → body); `url` ends with `/`. */
export async function startElectronMirror(files: Record<string, Buffer | string>): Promise<ElectronMirror> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://mirror').pathname;
    requests.push(pathname);
    const body = files[pathname];
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not on this mirror');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A `SHASUMS256.txt` line as Electron publishes it: `<sha256> *<file name>`. */
export function shasumsLine(fileName: string, body: Buffer): string {
  return `${createHash('sha256').update(body).digest('hex')} *${fileName}\n`;
}

/**
 * A zip archive with stored (uncompressed) entries, written by hand from the format (PKWARE
 * APPNOTE): local headers, central directory, end record. Entries get Unix mode 0755.
 */
export function storedZip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(text, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0, 8); // method: stored
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the external attributes hold the mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100755 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
