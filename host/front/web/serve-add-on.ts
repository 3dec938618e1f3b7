import type { ParseArgsConfig } from 'node:util';
import type { Host } from '../../app/create-host.ts';
import type { ApiHandlers } from '../../api/api-handlers.ts';
import type { FlagValues } from '../../config/read-setting-values.ts';
import type { MountedEndpoint } from './web-server.ts';

/**
 * What another front end adds to `serve` (given by host/front/front-ends.ts, so the web front end
 * names none): its flags, read with serve's, and, when a run asks for it, an endpoint beside the API.
 */
export interface ServeAddOn {
  options: NonNullable<ParseArgsConfig['options']>;
  /**
   * Reads its flags once the command line is read, before anything starts (a refusal opens no
   * database and no port), and loads what it serves with; undefined when this run does not use it.
   */
  prepare(values: FlagValues, dataDir: string): Promise<PreparedServeAddOn | undefined>;
}

export interface PreparedServeAddOn {
  /** Once the host is up: what it mounts and how it extends the API. */
  start(host: Host, options: { log: (line: string) => void; dataDir: string }): StartedServeAddOn;
}

export interface StartedServeAddOn {
  endpoint: MountedEndpoint;
  /** The API handlers as this add-on extends them. */
  handlers(handlers: ApiHandlers): ApiHandlers;
  /** Once serving at `url` (ending in `/`): the line printed for its clients. */
  served(url: string): string;
}
