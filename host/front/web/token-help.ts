// `home-agent token --help`: its text alone, so help loads none of the command's code.
import type { CommandHelp, HelpAddition } from '../command-line/command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../command-line/common-flag-help.ts';

/** token's help, with the other credentials it shows (given by host/front/front-ends.ts). */
export function tokenHelp(additions: readonly HelpAddition[] = []): CommandHelp {
  return {
    name: 'token',
    summary: `show or replace the web app’s token${additions.map((addition) => addition.summary ?? '').join('')}`,
    usage: [`token [show|rotate]${additions.map((addition) => ` ${addition.usage}`).join('')} [--data-dir DIR]`],
    description: [
      [
        'The token `serve` uses when none is given is kept in the data folder (web-token, readable by you',
        'only), so the address it prints, a bookmark and an open tab survive a restart. `show` prints it',
        '(making it the first time); `rotate` replaces it in one step: every address and tab holding the',
        'old one stops working once serve restarts.',
      ].join('\n'),
      ...additions.map((addition) => addition.description),
      [
        ' A token file',
        'that is a link, a FIFO or a folder, that another user owns or may read, or that is too large is',
        'refused (here and by serve) with the fix: `chmod 600` it, or `rotate`.',
      ].join('\n'),
    ].join(''),
    options: [...additions.flatMap((addition) => addition.options), DATA_DIR_OPTION_HELP],
    examples: [
      { command: 'home-agent token', text: 'The token of this data folder.' },
      { command: 'home-agent token rotate', text: 'A new token (restart serve to use it).' },
      ...additions.flatMap((addition) => addition.examples),
    ],
  };
}
