import type { OptionHelp } from './command-help.ts';

/** What help says of a command that goes through the running host of its data folder. */
export const ONE_HOME_TEXT = [
  'When a Home Agent host of the same data folder is running (the desktop window, npm start, serve),',
  'this goes through it over the socket in the data folder (host.sock, owner-only): its devices,',
  'grants, approvals and journal, and stderr names that host. Otherwise it opens the',
  'home itself, as when nothing else runs.',
].join('\n');

/** `--standalone`: never through a running host. */
export const STANDALONE_FLAG_HELP: OptionHelp = {
  flag: '--standalone',
  text: 'Open the home in this process even when a host of the data folder runs (ports it holds stay out of reach).',
};
