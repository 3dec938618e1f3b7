import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Plugin } from '../../../core/plugins/plugin.ts';
import type { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { canonicalJson } from '../../../core/agent/canonical-json.ts';
import { Emitter } from '../../../core/events/emitter.ts';
import type { McpTrustStore } from './mcp-trust-store.ts';
import type { ApprovalTarget } from '../../store/standing-approval-store.ts';
import { readMcpConfig, McpConfigError, type McpConfig, type McpServerConfig } from './mcp-config.ts';
import { literalSecretsOf } from './expand-variables.ts';
import type { McpConnection, McpStatus } from './mcp-connection.ts';
import { McpConfigWatch } from './mcp-config-watch.ts';
import { mcpConfigChanges } from './mcp-config-changes.ts';
import { mcpServerIdentity } from './mcp-server-identity.ts';
import { SyncedPluginRegistry } from '../synced-plugin-registry.ts';
import type { McpToolDeclaration } from './declare-mcp-tools.ts';
import { cutToolSchema } from './cut-tool-schema.ts';
import { resolveToolNames, type ResolvedToolNames } from './resolve-tool-names.ts';
import { mcpToolDefinition, type McpToolTrust } from './mcp-tool-definition.ts';
import { MCP_READY_WAIT_MS } from './mcp-ready-wait.ts';
import { mcpListing } from './mcp-listing.ts';
import type { PluginPart, PluginStatusFields, SignInStart } from '../plugin-part.ts';
import { unsafeSchemaName } from './server-text.ts';
import { safeLines, safeText } from '../../../core/text/safe-text.ts';
import type { McpElicitationFrontEnd } from './mcp-elicitation.ts';
import type { McpOAuthOptions } from './oauth/mcp-oauth-of.ts';
import type { McpOAuth } from './oauth/mcp-oauth.ts';
import { restartWhenSignedIn, signInHere, signOutHere } from './oauth/sign-in-here.ts';

/** The smallest bound on one message from a server; it grows with the result limit (a result travels as one message). */
const MIN_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * What the Plugins tab shows of an MCP server's plugin: never a secret, and what the server could
 * have put there (its stderr, its errors, its tools' names) through the text rule (`safeText`).
 */
export interface McpPluginStatus {
  status: Exclude<McpStatus, 'stopped'> | undefined;
  trusted: boolean;
  reason?: string;
  stderr?: string;
  warnings: string[];
  /** sha256 of its tools as listed now (names and declaration hashes): what trusting it would cover. */
  declarationHash: string;
  /** Where its person signs in, while it needs it (status `sign-in`). */
  signIn?: { url: string; again: boolean };
}

interface Entry {
  config: McpServerConfig;
  connection: McpConnection;
  plugin: Plugin;
  /** sha256 of how it is started (command and args, or URL): trust is given to that. */
  identity: string;
  literalSecrets: string[];
  /** Its command, args or URL changed in the config while it was trusted: said until it is trusted again. */
  trustLost?: string;
  /** Its OAuth sign-in (a Streamable HTTP server, when the host keeps tokens). */
  oauth?: McpOAuth;
}

/** What a configured server needs, with the MCP SDK: loaded once the first server is configured. */
interface ConnectionKit {
  Connection: typeof McpConnection;
  mcpOAuthOf: typeof import('./oauth/mcp-oauth-of.ts').mcpOAuthOf;
}

async function loadConnectionKit(): Promise<ConnectionKit> {
  const [{ McpConnection }, { mcpOAuthOf }] = await Promise.all([
    import('./mcp-connection.ts'),
    import('./oauth/mcp-oauth-of.ts'),
  ]);
  return { Connection: McpConnection, mcpOAuthOf };
}

/** What the manager needs of the host. */
export interface McpClientsOptions {
  config: McpConfig;
  environment: Readonly<Record<string, string | undefined>>;
  trust: McpTrustStore;
  standingApprovals: { revoke(target: ApprovalTarget): boolean };
  /** The result limit now (`mcpMaxResultBytes`, read at every call). */
  maxResultBytes: () => number;
  /** The tools of the other enabled plugins, name → plugin: an MCP tool never takes one of their names. */
  reservedNames: () => ReadonlyMap<string, string>;
  /** Whether the plugin of this name is enabled now. */
  isEnabled: (plugin: string) => boolean;
  log: (line: string) => void;
  version: string;
  /** How long a server may take to start and list its tools before it is restarted (`mcpStartTimeoutMs`). */
  startTimeoutMs?: number;
  /** The person's front end for servers' questions during calls; without one they are declined. */
  elicitation?: McpElicitationFrontEnd;
  /** OAuth 2.1 sign-in for Streamable HTTP servers that ask for it (where tokens are kept, who opens the page). */
  oauth?: McpOAuthOptions;
  /**
   * The config file to follow: its changes apply without a restart (`required`: `--mcp-config`, a
   * file that must be there). With it, `registry` takes the plugins of servers added and removed.
   */
  follow?: { file: string; required: boolean };
  registry?: PluginRegistry;
  /** Resolves when no turn runs: a changed config applies between turns (default: at once). */
  whenNoTurnRuns?: () => Promise<void>;
}

const storedDeclaration = z.object({
  original: z.string().min(1).max(1_000),
  name: z.string().min(1).max(64),
  description: z.string().max(2_000),
  parameters: z.record(z.string(), z.unknown()),
  readOnlyHint: z.boolean(),
  hash: z.string().length(64),
});

/**
 * Every configured MCP server of a host: one connection and one plugin (`mcp-NAME`) each. It keeps
 * names unique across servers and the other plugins, trust in the store, the servers of enabled
 * plugins running and the others stopped (`sync`), and tells the host when anything a front end
 * shows changed (`changes`) and when standing approvals were revoked (`approvalsChanged`).
 */
export class McpClients implements PluginPart {
  /** A server's status or tools changed (for the `plugins/changed` notice). */
  readonly changes = new Emitter<void>({ name: 'MCP servers' });
  /** Standing approvals were revoked because a tool's declaration changed (for `approvals/changed`). */
  readonly approvalsChanged = new Emitter<void>({ name: 'MCP approvals' });
  /** The followed config file changed; it is read and applied once no turn runs (then `changes`). */
  readonly configChanged = new Emitter<void>({ name: 'MCP config file' });

  private readonly options: McpClientsOptions;
  private readonly entries = new Map<string, Entry>();
  /** The failure last logged per plugin: a server failing the same way again is not logged again. */
  private readonly lastLogged = new Map<string, string>();
  private kit: ConnectionKit | undefined;
  private configProblems: string[];
  private readonly watch: McpConfigWatch | undefined;
  /** Re-reads of the followed file, one after another. */
  private reconfiguring: Promise<void> = Promise.resolve();
  /** Servers removed or replaced, until their children are gone. */
  private readonly stopping = new Set<Promise<void>>();
  private disposed = false;

  /** The manager of `options.config`'s servers; the MCP SDK is loaded only when one is configured. */
  static async create(options: McpClientsOptions): Promise<McpClients> {
    return new McpClients(options, options.config.servers.length > 0 ? await loadConnectionKit() : undefined);
  }

  /** Use `create`, which loads the connection and sign-in code when a server is configured. */
  constructor(options: McpClientsOptions, kit: ConnectionKit | undefined) {
    // Every line logged may hold a server's words or its tools' names: shown as the text rule says.
    this.options = { ...options, log: (line) => options.log(safeText(line)) };
    this.kit = kit;
    this.configProblems = options.config.problems.map(safeText);
    for (const problem of this.configProblems) this.options.log(problem);
    for (const config of options.config.servers) this.addEntry(config);
    const { follow } = options;
    this.watch = follow
      ? new McpConfigWatch({ file: follow.file, changed: () => this.reconfigure(), log: this.options.log })
      : undefined;
  }

  /** The plugins of the servers configured now, one each. */
  get plugins(): Plugin[] {
    return [...this.entries.values()].map((entry) => entry.plugin);
  }

  /** Problems of the config file and refused entries. */
  get problems(): readonly string[] {
    return this.configProblems;
  }

  /**
   * Starts the servers of enabled plugins and stops the others (at start, and after every toggle);
   * the first time, starts following the config file.
   */
  sync(): void {
    this.watch?.start();
    for (const [plugin, entry] of this.entries) {
      if (this.options.isEnabled(plugin)) entry.connection.start();
      else void entry.connection.stop();
    }
  }

  /**
   * Resolves once every enabled server is ready or failed, or after `timeoutMs`; the names of those
   * still starting then (the run goes on without them).
   */
  async whenSettled(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<string[]> {
    const waiting = [...this.entries.values()].filter((entry) => entry.connection.status === 'connecting');
    if (waiting.length === 0) return [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.timeoutMs ?? MCP_READY_WAIT_MS);
      options.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([Promise.all(waiting.map((entry) => entry.connection.whenSettled())), deadline]);
    clearTimeout(timer);
    return waiting.filter((entry) => entry.connection.status === 'connecting').map((entry) => entry.config.pluginName);
  }

  /** The connection of a plugin (tests, the bench). */
  connection(plugin: string): McpConnection | undefined {
    return this.entries.get(plugin)?.connection;
  }

  /** What the Plugins tab shows of a plugin, or undefined when it is not an MCP server's. */
  status(plugin: string): McpPluginStatus | undefined {
    const entry = this.entries.get(plugin);
    if (!entry) return undefined;
    const { connection } = entry;
    const trusted = this.serverTrusted(entry);
    const stderr = connection.stderrTail();
    const warnings = [
      ...(!trusted && entry.trustLost !== undefined ? [entry.trustLost] : []),
      ...entry.literalSecrets.map(
        (key) =>
          `${key} holds a secret written into the config: put it in an environment variable and write \${NAME} instead`,
      ),
      ...connection.warnings,
      ...(this.resolveNames().problems.get(plugin) ?? []),
      ...(trusted ? this.untrustedToolsOf(entry) : []),
    ];
    return {
      status: connection.status === 'stopped' ? undefined : connection.status,
      trusted,
      ...(connection.reason !== undefined ? { reason: safeText(connection.reason) } : {}),
      ...(stderr !== '' ? { stderr: safeLines(stderr) } : {}),
      warnings: warnings.map(safeText),
      declarationHash: declarationHashOf(connection.tools),
      ...(connection.signIn() !== undefined ? { signIn: connection.signIn()! } : {}),
    };
  }

  /** What `plugins/list` adds to one of its plugins; undefined when it is not an MCP server's. */
  listing(plugin: string, enabled: boolean): PluginStatusFields | undefined {
    const status = this.status(plugin);
    return status && mcpListing(status, enabled);
  }

  /** `setTrusted` for the host's plugins: undefined when it is not an MCP server's plugin. */
  trust(plugin: string, trusted: boolean, declarationHash?: string): 'applied' | 'changed' | undefined {
    const result = this.setTrusted(plugin, trusted, declarationHash);
    return result === 'not_mcp' ? undefined : result;
  }

  /**
   * Trusts a server (its current declarations) or takes the trust back. With `declarationHash` (what
   * the person was shown, from `status`), trust is given only if the server's tools are still those:
   * else `changed` and nothing is stored. `not_mcp` when it is not an MCP server's plugin.
   */
  setTrusted(plugin: string, trusted: boolean, declarationHash?: string): 'applied' | 'changed' | 'not_mcp' {
    const entry = this.entries.get(plugin);
    if (!entry) return 'not_mcp';
    if (trusted && declarationHash !== undefined && declarationHash !== declarationHashOf(entry.connection.tools))
      return 'changed';
    this.options.trust.setTrusted({ server: entry.config.name, identity: entry.identity, trusted });
    // Trusted again as it is now: what it lost is said no more.
    if (trusted) delete entry.trustLost;
    this.changes.emit();
    return 'applied';
  }

  /** Starts the person's sign-in to a server here (`plugins/sign-in`); undefined when it is not an MCP server's plugin. */
  async signIn(plugin: string): Promise<SignInStart | { refused: string } | undefined> {
    const entry = this.entries.get(plugin);
    if (!entry) return undefined;
    const { oauth, connection } = entry;
    const enabled = this.options.isEnabled(plugin);
    return signInHere({ plugin, oauth, connection, enabled, changed: () => this.changes.emit() });
  }

  /** Signs out of a server here (`plugins/sign-out`); undefined when it is not an MCP server's plugin. */
  async signOut(plugin: string): Promise<{ removed: boolean } | { refused: string } | undefined> {
    const entry = this.entries.get(plugin);
    if (!entry) return undefined;
    const { oauth, connection } = entry;
    return signOutHere({ plugin, oauth, connection, enabled: this.options.isEnabled(plugin) });
  }

  /** Stops following the config file and every server. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.watch?.dispose();
    await Promise.all([...[...this.entries.values()].map((entry) => entry.connection.stop()), ...this.stopping]);
    this.changes.clear();
    this.approvalsChanged.clear();
    this.configChanged.clear();
  }

  /**
   * The followed config file changed: read it again once no turn runs (a turn keeps the tools it
   * began with) and apply it. One re-read at a time; each reads the file as it is then.
   */
  private reconfigure(): void {
    const { follow } = this.options;
    if (follow === undefined) return;
    this.configChanged.emit();
    this.reconfiguring = this.reconfiguring
      .then(async () => {
        await this.options.whenNoTurnRuns?.();
        if (this.disposed) return;
        const config = readFollowed(follow);
        if (config.servers.length > 0) this.kit ??= await loadConnectionKit();
        if (!this.disposed) this.apply(config);
      })
      .catch((error: unknown) =>
        this.options.log(`${follow.file}: its change could not be applied: ${(error as Error).message}`),
      );
  }

  /**
   * Applies a config read again: servers added start, removed ones stop and their tools go, changed
   * ones start again as configured now (a changed command, args or URL loses the person's trust and
   * the standing approvals of its tools). A file that cannot be used keeps the servers it gave before.
   */
  private apply(config: McpConfig): void {
    const file = config.file ?? this.options.follow?.file ?? 'the MCP config';
    if (config.unusable !== undefined) {
      if (this.setProblems([`${config.unusable}; the MCP servers it gave before are kept until it is fixed`]))
        this.changes.emit();
      return;
    }
    const problemsChanged = this.setProblems(config.problems);
    const changes = mcpConfigChanges(
      [...this.entries.values()].map((entry) => entry.config),
      config.servers,
    );
    if (changes.added.length + changes.removed.length + changes.changed.length === 0) {
      if (problemsChanged) this.changes.emit();
      return;
    }
    for (const plugin of changes.removed) {
      this.dropEntry(plugin);
      this.options.log(`${plugin}: removed from ${file}: its server was stopped and its tools are gone`);
    }
    for (const { server, identityChanged } of changes.changed) {
      const before = this.entries.get(server.pluginName)!;
      const wasTrusted = this.serverTrusted(before);
      this.dropEntry(server.pluginName);
      const entry = this.addEntry(server);
      this.options.registry?.register(entry.plugin);
      if (identityChanged) this.forgetChanged({ before, after: entry, wasTrusted, file });
      else this.options.log(`${server.pluginName}: changed in ${file}: its server starts again as configured now`);
    }
    for (const server of changes.added) {
      this.options.registry?.register(this.addEntry(server).plugin);
      this.options.log(`${server.pluginName}: added from ${file}`);
    }
    // A plugin registered again takes the state the person gave it (turned off stays off).
    if (this.options.registry instanceof SyncedPluginRegistry) this.options.registry.refresh();
    this.sync();
    this.changes.emit();
  }

  /** The config's problems now; true when they changed (each new one is logged). */
  private setProblems(problems: readonly string[]): boolean {
    const next = problems.map(safeText);
    if (next.join('\n') === this.configProblems.join('\n')) return false;
    for (const problem of next) if (!this.configProblems.includes(problem)) this.options.log(problem);
    this.configProblems = next;
    return true;
  }

  /** Stops a server, and takes its plugin out of the registry. */
  private dropEntry(plugin: string): void {
    const entry = this.entries.get(plugin);
    if (!entry) return;
    this.entries.delete(plugin);
    this.lastLogged.delete(plugin);
    this.options.registry?.unregister(plugin);
    // Owned until its child is gone: `dispose` waits for it.
    const stopped = entry.connection.stop().finally(() => this.stopping.delete(stopped));
    this.stopping.add(stopped);
  }

  /**
   * What starts under a server's name is no longer what the person trusted or allowed: its trust
   * (said in the Plugins tab until it is trusted again) and its tools' standing approvals go.
   */
  private forgetChanged(options: { before: Entry; after: Entry; wasTrusted: boolean; file: string }): void {
    const { before, after, wasTrusted, file } = options;
    let revoked = false;
    for (const tool of before.connection.tools)
      if (this.options.standingApprovals.revoke({ tool: tool.name })) revoked = true;
    if (revoked) this.approvalsChanged.emit();
    const approvals = revoked ? ' (the standing approvals of its tools were revoked)' : '';
    if (!wasTrusted) {
      this.options.log(`${after.config.pluginName}: its command, args or URL changed in ${file}${approvals}`);
      return;
    }
    this.options.trust.setTrusted({ server: before.config.name, identity: before.identity, trusted: false });
    after.trustLost = `its command, args or URL changed in ${file}, so it is no longer trusted: trust it again if you trust what it starts now`;
    this.options.log(`${after.config.pluginName}: ${after.trustLost}${approvals}`);
  }

  /** The sign-in of an HTTP server (none for stdio, or when the host keeps no tokens); a config it cannot use is logged. */
  private oauthOf(kit: ConnectionKit, config: McpServerConfig): { oauth?: McpOAuth } {
    if (this.options.oauth === undefined || config.transport.kind !== 'http') return {};
    try {
      return { oauth: kit.mcpOAuthOf({ config, environment: this.options.environment, ...this.options.oauth }) };
    } catch (error) {
      this.options.log(`${config.pluginName}: ${(error as Error).message}`);
      return {};
    }
  }

  /** A configured server's connection and plugin (not started: `sync` starts it if its plugin is enabled). */
  private addEntry(config: McpServerConfig): Entry {
    const kit = this.kit;
    if (kit === undefined) throw new Error('the MCP connection is not loaded');
    const signIn = this.oauthOf(kit, config);
    const connection = new kit.Connection({
      server: config,
      environment: this.options.environment,
      maxMessageBytes: Math.max(MIN_MESSAGE_BYTES, 4 * this.options.maxResultBytes()),
      version: this.options.version,
      lastKnown: this.storedTools(config),
      ...(this.options.startTimeoutMs !== undefined ? { connectTimeoutMs: this.options.startTimeoutMs } : {}),
      ...(this.options.elicitation ? { elicitation: this.options.elicitation } : {}),
      ...signIn,
      onListed: (tools) => this.recordListing(config, tools),
      log: this.options.log,
    });
    connection.changes.subscribe(() => this.changed(connection));
    const entry: Entry = {
      config,
      connection,
      plugin: { name: config.pluginName, description: '', tools: () => [] },
      identity: mcpServerIdentity(config),
      literalSecrets: literalSecretsOf(config.transport),
      ...signIn,
    };
    restartWhenSignedIn(signIn.oauth, connection);
    entry.plugin = this.pluginOf(entry);
    this.entries.set(config.pluginName, entry);
    return entry;
  }

  private pluginOf(entry: Entry): Plugin {
    const { transport } = entry.config;
    return {
      name: entry.config.pluginName,
      description: safeText(
        transport.kind === 'stdio'
          ? `MCP server ${entry.config.name} (stdio: ${transport.command})`
          : `MCP server ${entry.config.name} (Streamable HTTP: ${safeUrl(transport.url)})`,
      ),
      tools: () => this.toolsOf(entry),
      dispose: () => entry.connection.stop(),
    };
  }

  /** The tools a server offers now: its last known tools, minus those whose names are taken. */
  private toolsOf(entry: Entry): ToolDefinition[] {
    const offered = this.resolveNames().offered.get(entry.config.pluginName);
    const trustOf = this.trustReader(entry);
    return entry.connection.tools
      .filter((declaration) => offered?.has(declaration.original))
      .map((declaration) =>
        mcpToolDefinition({
          plugin: entry.config.pluginName,
          declaration,
          connection: entry.connection,
          trust: trustOf(declaration),
          trustNow: () => this.trustReader(entry)(declaration),
          maxResultBytes: this.options.maxResultBytes,
        }),
      );
  }

  /** Reads the store once for a server; answers how far each of its declarations is trusted. */
  private trustReader(entry: Entry): (declaration: McpToolDeclaration) => McpToolTrust {
    const server = this.serverTrusted(entry);
    if (!server) return () => ({ server: false, vetted: false });
    const stored = new Map(this.options.trust.tools(entry.config.name).map((tool) => [tool.tool, tool]));
    return (declaration) => {
      const row = stored.get(declaration.original);
      const pinned = row !== undefined && row.trusted && row.hash === declaration.hash;
      return { server: true, vetted: pinned && declaration.readOnlyHint };
    };
  }

  private serverTrusted(entry: Entry): boolean {
    return this.options.trust.isTrusted(entry.config.name, entry.identity);
  }

  /** Tools of a trusted server whose declaration is not the one the person trusted (changed, or new). */
  private untrustedToolsOf(entry: Entry): string[] {
    const stored = new Map(this.options.trust.tools(entry.config.name).map((tool) => [tool.tool, tool]));
    return entry.connection.tools
      .filter((declaration) => {
        const row = stored.get(declaration.original);
        return !(row !== undefined && row.trusted && row.hash === declaration.hash);
      })
      .map(
        (declaration) =>
          `${declaration.name} is not covered by your trust (it changed or appeared after you trusted ${entry.config.pluginName}): it asks each time; trust the server again to cover it`,
      );
  }

  /** Names checked across every enabled server and the other plugins' tools. */
  private resolveNames(): ResolvedToolNames {
    return resolveToolNames({
      servers: [...this.entries.values()]
        .filter((entry) => this.options.isEnabled(entry.config.pluginName))
        .map((entry) => ({
          plugin: entry.config.pluginName,
          tools: entry.connection.tools.map((tool) => ({ original: tool.original, name: tool.name })),
        })),
      reserved: this.options.reservedNames(),
    });
  }

  /** A listing: kept in the store; a tool whose declaration changed loses trust and its standing approvals. */
  private recordListing(config: McpServerConfig, tools: McpToolDeclaration[]): void {
    try {
      const { changed } = this.options.trust.recordListing({
        server: config.name,
        tools: tools.map((tool) => ({ tool: tool.original, hash: tool.hash, declaration: JSON.stringify(tool) })),
      });
      let revoked = false;
      for (const original of changed) {
        const tool = tools.find((entry) => entry.original === original);
        if (!tool) continue;
        if (this.options.standingApprovals.revoke({ tool: tool.name })) revoked = true;
        this.options.log(
          `${config.pluginName}: ${tool.name} changed its declaration: it is no longer trusted and its standing approval (if any) was revoked`,
        );
      }
      if (revoked) this.approvalsChanged.emit();
    } catch (error) {
      // The tools are still offered from memory; their trust stays as stored (a changed tool is not trusted).
      this.options.log(`${config.pluginName}: could not record its tools: ${(error as Error).message}`);
    }
  }

  /** The declarations stored by an earlier run, offered until the server lists its own. */
  private storedTools(config: McpServerConfig): McpToolDeclaration[] {
    const tools: McpToolDeclaration[] = [];
    for (const row of this.options.trust.tools(config.name)) {
      if (row.declaration === undefined) continue;
      let raw: unknown;
      try {
        raw = JSON.parse(row.declaration);
      } catch {
        // Written by us as JSON; a row that is not is skipped like any invalid one below.
        continue;
      }
      const parsed = storedDeclaration.safeParse(raw);
      if (!parsed.success || parsed.data.original !== row.tool || parsed.data.hash !== row.hash) continue;
      const parameters = cutToolSchema(parsed.data.parameters).schema;
      // Checked when it was listed; checked again, as anything read back from the disk is.
      if (unsafeSchemaName(parameters) !== undefined) continue;
      tools.push({ ...parsed.data, parameters });
    }
    return tools;
  }

  private changed(connection: McpConnection): void {
    if (connection.status === 'failed' && connection.reason !== undefined) {
      const key = connection.reason.replace(/; starting it again in \d+ s$/, '');
      if (this.lastLogged.get(connection.name) !== key) {
        this.lastLogged.set(connection.name, key);
        this.options.log(`${connection.name} failed: ${connection.reason}`);
      }
    } else if (connection.status === 'ready') this.lastLogged.delete(connection.name);
    this.changes.emit();
  }
}

/** What a person is shown a server offers, as one hash: each tool's own name and declaration hash, in order. */
function declarationHashOf(tools: readonly McpToolDeclaration[]): string {
  const pairs = tools.map((tool) => [tool.original, tool.hash]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return createHash('sha256').update(canonicalJson(pairs), 'utf8').digest('hex');
}

/** A URL without user, password, query or fragment, which may carry secrets. */
function safeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** The followed file read again: one that must be there and is not, or is broken, is a file that cannot be used. */
function readFollowed(follow: { file: string; required: boolean }): McpConfig {
  try {
    return readMcpConfig(follow);
  } catch (error) {
    if (!(error instanceof McpConfigError)) throw error;
    return { file: follow.file, servers: [], problems: [error.message], unusable: error.message };
  }
}
