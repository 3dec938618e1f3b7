import type Database from 'better-sqlite3';
import { checkedWrite } from '../../store/checked-write.ts';

/** A tool as a server last listed it: its hash, whether the person trusted exactly that, and its declaration as offered. */
export interface StoredMcpTool {
  tool: string;
  hash: string;
  trusted: boolean;
  /** The declaration as offered (JSON); absent once the server stopped listing the tool. */
  declaration?: string;
}

export interface McpTrustStoreOptions {
  db: Database.Database;
  now?: () => number;
}

type ToolRow = { tool: string; hash: string; trusted: number; declaration: string | null };

/**
 * Trust in MCP servers, and their tools as last listed, in SQLite. A tool runs on trust only while
 * its declaration is the one the person trusted: `recordListing` drops the trust of a tool whose
 * declaration changed and says which, so its standing approvals can be revoked. Reads go to the
 * table every time, so trust given or taken in another process applies to the next call.
 */
export class McpTrustStore {
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly statements;

  constructor(options: McpTrustStoreOptions) {
    const { db } = options;
    this.db = db;
    this.now = options.now ?? Date.now;
    this.statements = {
      server: db.prepare<[string], { trusted: number; identity: string }>(
        'SELECT trusted, identity FROM mcp_servers WHERE server = ?',
      ),
      setServer: db.prepare<[string, number, string, number]>(
        'INSERT INTO mcp_servers (server, trusted, identity, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (server) DO UPDATE SET trusted = excluded.trusted, identity = excluded.identity, updated_at = excluded.updated_at',
      ),
      tools: db.prepare<[string], ToolRow>(
        'SELECT tool, hash, trusted, declaration FROM mcp_tools WHERE server = ? ORDER BY tool',
      ),
      upsertTool: db.prepare<[string, string, string, string, number]>(
        `INSERT INTO mcp_tools (server, tool, hash, trusted, declaration, seen_at) VALUES (?, ?, ?, 0, ?, ?)
         ON CONFLICT (server, tool) DO UPDATE SET
           trusted = CASE WHEN mcp_tools.hash = excluded.hash THEN mcp_tools.trusted ELSE 0 END,
           hash = excluded.hash, declaration = excluded.declaration, seen_at = excluded.seen_at`,
      ),
      unlist: db.prepare<[string]>('UPDATE mcp_tools SET declaration = NULL WHERE server = ?'),
      trustListed: db.prepare<[number, string]>(
        'UPDATE mcp_tools SET trusted = ? WHERE server = ? AND declaration IS NOT NULL',
      ),
      untrustAll: db.prepare<[string]>('UPDATE mcp_tools SET trusted = 0 WHERE server = ?'),
    };
  }

  /** Whether the person trusts this server as it is now (`identity`: its command and args, or its URL). */
  isTrusted(server: string, identity: string): boolean {
    const row = this.statements.server.get(server);
    return row !== undefined && row.trusted === 1 && row.identity === identity;
  }

  /**
   * Trusts the server (as `identity`) and exactly the declarations it lists now, or takes the trust
   * back from the server and all its tools. StoreError when the disk refuses it.
   */
  setTrusted(options: { server: string; identity: string; trusted: boolean }): void {
    const { server, identity, trusted } = options;
    checkedWrite({ db: this.db, what: `the trust in MCP server ${server}` }, () =>
      this.db.transaction(() => {
        this.statements.setServer.run(server, trusted ? 1 : 0, trusted ? identity : '', this.now());
        if (trusted) this.statements.trustListed.run(1, server);
        else this.statements.untrustAll.run(server);
      })(),
    );
  }

  /** The tools of a server as last listed (and those no longer listed, without a declaration). */
  tools(server: string): StoredMcpTool[] {
    return this.statements.tools.all(server).map((row) => ({
      tool: row.tool,
      hash: row.hash,
      trusted: row.trusted === 1,
      ...(row.declaration !== null ? { declaration: row.declaration } : {}),
    }));
  }

  /**
   * Records what the server lists now. A tool whose declaration differs from the stored one loses
   * its trust; the names of those that had been seen before come back in `changed`.
   */
  recordListing(options: { server: string; tools: readonly { tool: string; hash: string; declaration: string }[] }): {
    changed: string[];
  } {
    const { server } = options;
    const before = new Map(this.statements.tools.all(server).map((row) => [row.tool, row.hash]));
    const changed = options.tools
      .filter((tool) => before.has(tool.tool) && before.get(tool.tool) !== tool.hash)
      .map((tool) => tool.tool);
    checkedWrite({ db: this.db, what: `the tools of MCP server ${server}` }, () =>
      this.db.transaction(() => {
        this.statements.unlist.run(server);
        const now = this.now();
        for (const tool of options.tools)
          this.statements.upsertTool.run(server, tool.tool, tool.hash, tool.declaration, now);
      })(),
    );
    return { changed };
  }
}
