import path from 'node:path';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { openDatabase } from '../../../host/store/open-database.ts';
import { makeReadOnlyFolder, type MountedTmpfs } from '../../helpers/mount-tmpfs.ts';
import { runCli } from '../../helpers/run-cli.ts';

const folders: MountedTmpfs[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) folder.unmount();
});

/** A read-only folder for this test; the test is skipped, saying why, where none can be made. */
function readOnly(context: TestContext, prepare: (folder: string) => void = () => {}): MountedTmpfs {
  const made = makeReadOnlyFolder(prepare);
  if (!('path' in made)) context.skip(made.skip);
  folders.push(made);
  return made;
}

/** What the person must read: the path, the cause, and what to do. */
const CAUSE = /read-only file system \(EROFS\)|not writable by this user \(EACCES\)/;

describe('a read-only data folder', () => {
  it('is refused when the store opens, naming the folder, the cause and what to do', (context) => {
    const folder = readOnly(context);
    const file = path.join(folder.path, 'home-agent.db');
    let thrown: unknown;
    try {
      openDatabase({ file });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ name: 'StoreError', kind: 'read_only', file });
    const message = (thrown as Error).message;
    expect(message).toContain(folder.path);
    expect(message).toMatch(CAUSE);
    expect(message).toMatch(/--data-dir/);
    expect(message).not.toMatch(/unable to open database file/);
  });

  it('names the nearest existing folder when the data folder would have to be created inside it', (context) => {
    const folder = readOnly(context);
    expect(() => openDatabase({ file: path.join(folder.path, 'home', 'agent', 'home-agent.db') })).toThrow(
      new RegExp(`${folder.path.replaceAll('/', '\\/')} .*${CAUSE.source}`),
    );
  });

  it('is refused at open, not at the first write, when it already holds a store', (context) => {
    const folder = readOnly(context, (writable) =>
      openDatabase({ file: path.join(writable, 'home-agent.db') }).close(),
    );
    expect(() => openDatabase({ file: path.join(folder.path, 'home-agent.db') })).toThrow(CAUSE);
  });

  it('ends `home-agent ask` with exit 1 and a message naming the path and the cause', async (context) => {
    const folder = readOnly(context);
    const result = await runCli(['ask', '--data-dir', folder.path, '--provider', 'demo', 'hello'], {
      env: { HOME_AGENT_NO_OLLAMA_PROBE: '1' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(path.join(folder.path, 'home-agent.db'));
    expect(result.stderr).toMatch(CAUSE);
    expect(result.stderr).not.toMatch(/unable to open database file/);
  });
});
