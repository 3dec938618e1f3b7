import { safeText } from '../../../../core/text/safe-text.ts';
import { hostNoticeSchema } from '../../../contract/api-contract.ts';
import { openLinkDoor } from '../../../link/find-home-holder.ts';
import { LinkApiClient } from '../../../link/link-api-client.ts';
import type { LinkHolder } from '../../../link/link-messages.ts';
import { linkPathOf } from '../../../link/link-path.ts';
import type { CliIo } from '../../command-line/cli-io.ts';
import type { ApiOutput } from '../../../contract/api-contract.ts';

type ListedPlugin = ApiOutput<'plugins/list'>['plugins'][number];

/** The API of the host that runs this data folder's home, when one does: it signs in, so its tokens are its own. */
export async function homeHostApi(dataDir: string): Promise<{ api: LinkApiClient; holder: LinkHolder } | undefined> {
  const opened = await openLinkDoor(linkPathOf(dataDir).path, 'api', { command: 'home-agent plugins' });
  if (!opened) return undefined;
  if (!opened.welcome.ok) {
    opened.socket.destroy();
    throw new Error(opened.welcome.error);
  }
  return { api: new LinkApiClient(opened.socket), holder: opened.welcome.holder };
}

/**
 * `plugins login` while a host runs the home: that host signs in (its loopback listener takes the
 * browser's return, its keychain or owner-only file keeps the tokens), and this waits until it uses
 * the server — the plugin's status `ready` — or it fails, the wait ends, or the host goes.
 */
export async function signInThroughHost(options: {
  api: LinkApiClient;
  holder: LinkHolder;
  plugin: string;
  waitMs: number;
  io: CliIo;
}): Promise<number> {
  const { api, plugin, io } = options;
  const host = `${safeText(options.holder.command)} (pid ${options.holder.pid})`;
  io.stderr.write(`home-agent plugins: ${host} runs this home: it signs in to ${plugin} and keeps its tokens\n`);
  // Listening before asking, so no change is missed.
  let changed: () => void = () => undefined;
  let pending = false;
  api.onNotice = (notice) => {
    const parsed = hostNoticeSchema.safeParse(notice);
    if (!parsed.success || parsed.data.type !== 'plugins/changed') return;
    pending = true;
    changed();
  };
  const statusOf = async (): Promise<ListedPlugin | undefined> =>
    (await api.call('plugins/list', {})).plugins.find((each) => each.name === plugin);
  // A failure counts once the server started again after the sign-in, not one of an earlier start.
  let failureCounts = (await statusOf())?.status === 'sign-in';
  const started = await api.call('plugins/sign-in', { name: plugin });
  if (started.url === undefined) {
    io.stdout.write(`${plugin} is signed in already: ${host} uses it.\n`);
    return 0;
  }
  io.stdout.write(
    `Open this address in a browser to sign in to ${plugin}:\n\n  ${started.url}\n\nWaiting for the browser…\n`,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = new Promise<'timeout' | 'stopped' | 'host gone'>((resolve) => {
    timer = setTimeout(resolve, options.waitMs, 'timeout');
    io.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
    void api.closed.then(() => resolve('host gone'));
  });
  try {
    let shown = started.url;
    for (;;) {
      const next = pending
        ? 'changed'
        : await Promise.race([new Promise<'changed'>((resolve) => (changed = () => resolve('changed'))), ended]);
      if (next !== 'changed') {
        const why = {
          timeout: `the browser did not come back within ${Math.round(options.waitMs / 60_000)} minutes`,
          stopped: 'stopped',
          'host gone': `${host} stopped before the sign-in finished`,
        }[next];
        io.stderr.write(`home-agent plugins: ${why}: not signed in\n`);
        return 1;
      }
      pending = false;
      const listed = await statusOf();
      if (listed?.status === undefined) {
        io.stderr.write(
          `home-agent plugins: ${plugin} was turned off or removed in ${host} while it waited: whether the sign-in finished is not known here (see its Plugins tab)\n`,
        );
        return 1;
      }
      if (listed.status === 'ready') {
        io.stdout.write(`Signed in to ${plugin}: ${host} uses it now. Its tokens are kept in ${started.keptIn}.\n`);
        return 0;
      }
      if (listed.status === 'failed' && failureCounts) {
        io.stderr.write(`home-agent plugins: ${plugin} failed in ${host}: ${listed.reason ?? 'no reason given'}\n`);
        return 1;
      }
      if (listed.status !== 'failed') failureCounts = true;
      if (listed.status === 'sign-in' && listed.signInUrl !== undefined && listed.signInUrl !== shown) {
        shown = listed.signInUrl;
        io.stdout.write(`${plugin} asks to sign in again:\n\n  ${shown}\n\nWaiting for the browser…\n`);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** `plugins logout` while a host runs the home: that host removes the tokens it keeps, and asks for sign-in again. */
export async function signOutThroughHost(options: {
  api: LinkApiClient;
  holder: LinkHolder;
  plugin: string;
  io: CliIo;
}): Promise<number> {
  const { plugin, io } = options;
  const { removed } = await options.api.call('plugins/sign-out', { name: plugin });
  const host = `${safeText(options.holder.command)} (pid ${options.holder.pid})`;
  io.stdout.write(
    removed
      ? `Signed out of ${plugin}: ${host} removed its tokens.\n`
      : `${plugin} was not signed in: nothing to remove.\n`,
  );
  return 0;
}
