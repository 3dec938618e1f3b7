// `home-agent serve --help`: its text alone, so help loads none of the command's code.
import type { CommandHelp, HelpAddition } from '../command-line/command-help.ts';
import { DEVICE_AND_DATA_FLAG_HELP, SETTING_FLAG_HELP } from '../command-line/common-flag-help.ts';

/** serve's help, with what other front ends add to serve (given by host/front/front-ends.ts). */
export function serveHelp(additions: readonly HelpAddition[] = []): CommandHelp {
  return {
    name: 'serve',
    summary: `serve the app to browsers on this machine or the home network${additions.map((addition) => addition.summary ?? '').join('')}`,
    usage: [
      `serve [--port P] [--host ADDRESS] [--token T]${additions.map((addition) => ` ${addition.usage}`).join('')} [options]`,
    ],
    description:
      [
        'Runs the app for browsers: it prints "Home Agent is serving at http://HOST:PORT/#token=TOKEN" and',
        'serves until stopped (Ctrl+C). Every request needs the token; it binds 127.0.0.1 unless --host says',
        'otherwise, and a non-loopback address needs a token. Settings changed in the page apply to the next',
        'turn; flags given here win over them for this run.',
      ].join('\n') + additions.map((addition) => addition.description).join(''),
    options: [
      { flag: '--port P', text: 'The port (default 8123; a free one when 8123 is taken and --port is not given).' },
      { flag: '--host ADDRESS', text: 'The address to listen on (default 127.0.0.1; 0.0.0.0 for the home network).' },
      {
        flag: '--token T',
        text: 'The token browsers must present, 16 characters or more (default: $HOME_AGENT_TOKEN, else the one kept in the data folder, made on first use on loopback, so the address survives restarts; home-agent token shows it, home-agent token rotate replaces it).',
      },
      {
        flag: '--allowed-host NAME',
        text: 'Also accept requests addressed to NAME (a name the server is reached by; repeatable).',
      },
      { flag: '--static DIR', text: 'Serve the page from DIR instead of the built dist/renderer.' },
      ...additions.flatMap((addition) => addition.options),
      ...SETTING_FLAG_HELP,
      ...DEVICE_AND_DATA_FLAG_HELP,
    ],
    examples: [
      { command: 'home-agent serve --sim', text: 'The app with simulated devices; open the address it prints.' },
      ...additions.flatMap((addition) => addition.examples),
      {
        command: 'home-agent serve --host 0.0.0.0 --device /dev/ttyUSB0',
        text: 'On a home server: reachable from the network, with the device on /dev/ttyUSB0.',
      },
    ],
  };
}
