// Schema of the Home Agent store (one SQLite file, WAL, application_id 'HmAg', user_version = migrations run):
//   conversations  id PK, title, created_at, updated_at (ms; triggers bump updated_at on every message/event)
//   messages       (conversation_id → conversations, seq) PK, role, payload = the ConversationMessage as JSON
//   events         (conversation_id, seq) PK, turn_id, type, at, payload = the AgentEvent as JSON — the journal;
//                  indexed by (conversation_id, type, seq) so request/header and tool/end (timings) are queryable
//   settings       key PK → value JSON, validated per key by host/contract/settings-table.ts
//   plugin_state   name PK → enabled 0|1 (a plugin without a row is enabled)
//   paired_devices device_id PK, path, alias, identity JSON {id,kind,model,firmware}, tools JSON (the hello's),
//                  grants JSON (tool names the agent may use), paired_at, confirmed_identity 0|1,
//                  profile (the line or Modbus profile the device speaks through; NULL for our protocol),
//                  modbus JSON {unit, bus {baud, parity, stopbits}} (NULL unless a Modbus unit);
//                  pinned_declaration JSON {tools, profile? {content, sha256}}: what the person agreed to
//                  (NULL for a pairing stored before it existed, until its first hello pins it);
//                  UNIQUE (path, Modbus unit): one device per path, except units of one Modbus bus;
//                  serial_link (its /dev/serial/by-id link name when paired) NULL, moved_from JSON
//                  {path, at, because} (where the host followed it from) NULL;
//                  since migration 14: way_in (the way it connects: 'serial', 'modbus'), way_in_options
//                  JSON (that way in's options, e.g. {unit, baud, parity, stopbits}; NULL when none) in
//                  place of modbus, and UNIQUE (path, way_in_options): one device per path, except units
//                  of one bus; since migration 15: room (the person's word for where it is) NULL
//   sequences      name PK, definition JSON (re-validated by core's sequenceSchema when read), updated_at
//   standing_approvals (tool, device_id) PK, created_at: "Always allow" answers; device_id '' for a tool
//                  that is not a device's. Each covers exactly that tool on that device, for every caller;
//                  deleting a paired_devices row deletes its device's rows (trigger).
//   request_parts  hash PK (sha256 hex of body), kind 'system' | 'tools', body (the system prompt, or the tool
//                  declarations' JSON as sent), created_at: what request/header's systemPromptHash and
//                  toolsHash name, each stored once, so `home-agent verify` can rebuild every header
//   model_contexts (base_url, model) PK, window_tokens (a window a 400 stated) NULL, bytes_per_token (measured
//                  from reported usage) NULL, updated_at: what was learned of each model's context (core/context)
//   mcp_servers    server PK (a name of mcp.json), trusted 0|1, identity (sha256 of its command and args, or
//                  its URL, when trusted), updated_at: whether the person trusts that MCP server
//   mcp_tools      (server, tool) PK, hash (sha256 of the declaration the server last listed), trusted 0|1
//                  (that declaration is the one the person trusted), declaration JSON (as offered; NULL once
//                  the server stops listing it), seen_at: the last tools of each server, offered while it is down
//   pending_approvals approval_id PK, owner (the asking host's run id), conversation_id, turn_id, asked_at,
//                  expires_at (ms), approved/remember 0|1 and answered_at once answered (NULL before): the
//                  questions a host is waiting on, so a window of another process on the folder can answer
//   approval_pin   id 1 PK, hash (`scrypt$N$r$p$salt$key`, never the PIN), set_at: the approval PIN (migration 16)
//   pin_attempts   id 1 PK, failures, locked_until (ms): wrong PINs in a row, shared by every process on the folder
//   pin_actions    (device_id, action) PK, needs_pin 0|1: the person's marks; deleting a paired_devices row
//                  deletes its device's marks (trigger)
// Migrations only ever append: never edit one that has shipped, add the next. Each runs in its own
// IMMEDIATE transaction together with the user_version bump, so a crash leaves the previous version.
import type Database from 'better-sqlite3';

/** Our files carry this `PRAGMA application_id` ('HmAg'); another non-zero id marks a foreign file. */
export const APPLICATION_ID = 0x486d4167;

/** One schema step; it runs inside a transaction opened by the runner. */
export type Migration = (db: Database.Database) => void;

function createConversations(db: Database.Database): void {
  db.pragma(`application_id = ${APPLICATION_ID}`);
  db.exec(`
    CREATE TABLE conversations (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX conversations_by_update ON conversations (updated_at DESC, created_at DESC);

    CREATE TABLE messages (
      conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
      payload TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (conversation_id, seq)
    ) STRICT;

    -- No foreign key: the journal keeps every event, even one emitted before its conversation row exists.
    CREATE TABLE events (
      conversation_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      turn_id TEXT NOT NULL,
      type TEXT NOT NULL,
      at INTEGER NOT NULL,
      payload TEXT NOT NULL,
      PRIMARY KEY (conversation_id, seq)
    ) STRICT;
    CREATE INDEX events_by_type ON events (conversation_id, type, seq);
    CREATE INDEX events_by_turn ON events (turn_id, seq);

    CREATE TRIGGER messages_touch_conversation AFTER INSERT ON messages BEGIN
      UPDATE conversations SET updated_at = max(updated_at, NEW.created_at) WHERE id = NEW.conversation_id;
    END;
    CREATE TRIGGER events_touch_conversation AFTER INSERT ON events BEGIN
      UPDATE conversations SET updated_at = max(updated_at, NEW.at) WHERE id = NEW.conversation_id;
    END;
  `);
}

function createSettingsAndPluginState(db: Database.Database): void {
  db.exec(`
    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE plugin_state (
      name TEXT PRIMARY KEY,
      enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
      updated_at INTEGER NOT NULL
    ) STRICT;
  `);
}

function createPairedDevices(db: Database.Database): void {
  db.exec(`
    CREATE TABLE paired_devices (
      device_id TEXT PRIMARY KEY,
      path TEXT NOT NULL UNIQUE,
      alias TEXT NOT NULL,
      identity TEXT NOT NULL,
      tools TEXT NOT NULL,
      grants TEXT NOT NULL,
      paired_at INTEGER NOT NULL,
      confirmed_identity INTEGER NOT NULL CHECK (confirmed_identity IN (0, 1))
    ) STRICT;
  `);
}

/** Devices that speak plain lines are paired with the line profile they speak through. */
function addPairedDeviceProfile(db: Database.Database): void {
  db.exec('ALTER TABLE paired_devices ADD COLUMN profile TEXT');
}

/** Saved tool programs of the sequences plugin. */
function createSequences(db: Database.Database): void {
  db.exec(`
    CREATE TABLE sequences (
      name TEXT PRIMARY KEY,
      definition TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
  `);
}

/**
 * Several Modbus units may share one port, so the path alone is no longer unique: the table is
 * rebuilt (SQLite cannot drop a UNIQUE constraint) with a `modbus` column, and uniqueness moves to
 * the path and the unit (0 for a device that has its port to itself).
 */
function shareModbusPorts(db: Database.Database): void {
  db.exec(`
    CREATE TABLE paired_devices_next (
      device_id TEXT PRIMARY KEY,
      path TEXT NOT NULL,
      alias TEXT NOT NULL,
      identity TEXT NOT NULL,
      tools TEXT NOT NULL,
      grants TEXT NOT NULL,
      paired_at INTEGER NOT NULL,
      confirmed_identity INTEGER NOT NULL CHECK (confirmed_identity IN (0, 1)),
      profile TEXT,
      modbus TEXT
    ) STRICT;
    INSERT INTO paired_devices_next
        (device_id, path, alias, identity, tools, grants, paired_at, confirmed_identity, profile)
      SELECT device_id, path, alias, identity, tools, grants, paired_at, confirmed_identity, profile
      FROM paired_devices;
    DROP TABLE paired_devices;
    ALTER TABLE paired_devices_next RENAME TO paired_devices;
    CREATE UNIQUE INDEX paired_devices_by_address
      ON paired_devices (path, coalesce(json_extract(modbus, '$.unit'), 0));
  `);
}

/**
 * Standing approvals ("Always allow"): one row per tool and device (`''` when the tool is not a
 * device's), read at every call that needs approval, so a revocation anywhere applies to the next
 * call. A trigger removes a device's approvals when its pairing is deleted.
 */
function createStandingApprovals(db: Database.Database): void {
  db.exec(`
    CREATE TABLE standing_approvals (
      tool TEXT NOT NULL CHECK (length(tool) BETWEEN 1 AND 200),
      device_id TEXT NOT NULL CHECK (length(device_id) <= 200),
      created_at INTEGER NOT NULL,
      PRIMARY KEY (tool, device_id)
    ) STRICT;
    -- Forgetting a device removes all of it, whichever front end or process forgets it.
    CREATE TRIGGER paired_devices_forget_approvals AFTER DELETE ON paired_devices BEGIN
      DELETE FROM standing_approvals WHERE device_id = OLD.device_id;
    END;
  `);
}

/**
 * The system prompts and tool declarations requests carried, by hash: a `request/header` names
 * them, so `verify` can rebuild the header of every step. Most turns send the same ones, so the
 * table stays small however long the journal grows.
 */
function createRequestParts(db: Database.Database): void {
  db.exec(`
    CREATE TABLE request_parts (
      hash TEXT PRIMARY KEY CHECK (length(hash) = 64),
      kind TEXT NOT NULL CHECK (kind IN ('system', 'tools')),
      body TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
  `);
}

/**
 * What a person agreed to at pairing, pinned in a column of its own: the tools the device declared
 * (schemas, `confirm` flags) and, for a profile file, its content and sha256. Rows already stored
 * keep NULL: they are pinned at their first hello, not treated as changed.
 */
function addPinnedDeclarations(db: Database.Database): void {
  db.exec('ALTER TABLE paired_devices ADD COLUMN pinned_declaration TEXT');
}

/**
 * What was learned of each model's context window (per base URL and model): the window a 400 stated
 * and the bytes per token its server's usage showed, so the next process starts from them.
 */
function createModelContexts(db: Database.Database): void {
  db.exec(`
    CREATE TABLE model_contexts (
      base_url TEXT NOT NULL,
      model TEXT NOT NULL CHECK (length(model) BETWEEN 1 AND 400),
      window_tokens INTEGER CHECK (window_tokens IS NULL OR window_tokens > 0),
      bytes_per_token REAL CHECK (bytes_per_token IS NULL OR bytes_per_token > 0),
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (base_url, model)
    ) STRICT;
  `);
}

/**
 * The MCP servers a person trusts, and each server's tools as last listed: the hash of the
 * declaration the person trusted pins it (a tool that changes loses trust), and the declaration is
 * kept so a server that is down when the app starts still offers its tools.
 */
function createMcpTrust(db: Database.Database): void {
  db.exec(`
    CREATE TABLE mcp_servers (
      server TEXT PRIMARY KEY CHECK (length(server) BETWEEN 1 AND 40),
      trusted INTEGER NOT NULL CHECK (trusted IN (0, 1)),
      identity TEXT NOT NULL CHECK (length(identity) <= 64),
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE mcp_tools (
      server TEXT NOT NULL CHECK (length(server) BETWEEN 1 AND 40),
      tool TEXT NOT NULL CHECK (length(tool) BETWEEN 1 AND 1000),
      hash TEXT NOT NULL CHECK (length(hash) = 64),
      trusted INTEGER NOT NULL CHECK (trusted IN (0, 1)),
      declaration TEXT,
      seen_at INTEGER NOT NULL,
      PRIMARY KEY (server, tool)
    ) STRICT;
  `);
}

/**
 * The approval questions hosts are waiting on: a row while its call waits, deleted when the question
 * ends. Every host on the folder reads it (its windows show the question and answer it by writing
 * the answer into the row, which the asking host reads); a row past `expires_at` belongs to a host
 * that stopped without closing it.
 */
function createPendingApprovals(db: Database.Database): void {
  db.exec(`
    CREATE TABLE pending_approvals (
      approval_id TEXT PRIMARY KEY CHECK (length(approval_id) BETWEEN 1 AND 100),
      owner TEXT NOT NULL CHECK (length(owner) BETWEEN 1 AND 100),
      conversation_id TEXT NOT NULL,
      turn_id TEXT NOT NULL,
      asked_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      approved INTEGER CHECK (approved IN (0, 1)),
      remember INTEGER CHECK (remember IN (0, 1)),
      answered_at INTEGER
    ) STRICT;
    CREATE INDEX pending_approvals_by_owner ON pending_approvals (owner);
  `);
}

/**
 * How a paired device is followed to another port: the name of its `/dev/serial/by-id` link when it
 * was paired, and where it was followed from (JSON {path, at, because}). Rows already stored keep
 * NULL: they are followed only when a simulator announces them elsewhere.
 */
function addFollowedPorts(db: Database.Database): void {
  db.exec('ALTER TABLE paired_devices ADD COLUMN serial_link TEXT');
  db.exec('ALTER TABLE paired_devices ADD COLUMN moved_from TEXT');
}

/**
 * The way a device connects becomes a seam: each pairing stores its way in (`serial` for a port of
 * its own, `modbus` for a unit of a bus) and that way in's options as one flat JSON object. The
 * Modbus rows are carried over — `{unit, bus {baud, parity, stopbits}}` becomes `{unit, baud,
 * parity, stopbits}` — and the `modbus` column goes; uniqueness moves to the path and the options
 * (one device per path, except units of one bus, which differ in theirs). Pinned declarations stay.
 */
function storeWaysIn(db: Database.Database): void {
  db.exec(`
    DROP INDEX paired_devices_by_address;
    ALTER TABLE paired_devices ADD COLUMN way_in TEXT NOT NULL DEFAULT 'serial';
    ALTER TABLE paired_devices ADD COLUMN way_in_options TEXT;
    UPDATE paired_devices
      SET way_in = 'modbus',
          way_in_options = json_patch(
            json_object('unit', json_extract(modbus, '$.unit')),
            coalesce(json_extract(modbus, '$.bus'), '{}'))
      WHERE modbus IS NOT NULL;
    ALTER TABLE paired_devices DROP COLUMN modbus;
    CREATE UNIQUE INDEX paired_devices_by_address ON paired_devices (path, coalesce(way_in_options, ''));
  `);
}

/** A paired device may have a room (migration 15): the person's word for where it is; NULL for none. */
function addDeviceRooms(db: Database.Database): void {
  db.exec('ALTER TABLE paired_devices ADD COLUMN room TEXT');
}

/**
 * The approval PIN (migration 16): its salted scrypt hash (one row at most), the wrong answers given
 * to it (counted here so every process on the folder shares one lockout), and which device actions
 * the person marked as needing it or not (a mark goes with its device's pairing, by trigger).
 */
function createApprovalPin(db: Database.Database): void {
  db.exec(`
    CREATE TABLE approval_pin (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      hash TEXT NOT NULL CHECK (length(hash) BETWEEN 1 AND 500),
      set_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE pin_attempts (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      failures INTEGER NOT NULL CHECK (failures >= 0),
      locked_until INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE pin_actions (
      device_id TEXT NOT NULL,
      action TEXT NOT NULL,
      needs_pin INTEGER NOT NULL CHECK (needs_pin IN (0, 1)),
      PRIMARY KEY (device_id, action)
    ) STRICT;
    CREATE TRIGGER paired_devices_forget_pin_actions AFTER DELETE ON paired_devices BEGIN
      DELETE FROM pin_actions WHERE device_id = OLD.device_id;
    END;
  `);
}

/** Every migration in order; a file's `user_version` is how many of them it has run. */
export const migrations: readonly Migration[] = [
  createConversations,
  createSettingsAndPluginState,
  createPairedDevices,
  addPairedDeviceProfile,
  createSequences,
  shareModbusPorts,
  createStandingApprovals,
  createRequestParts,
  addPinnedDeclarations,
  createModelContexts,
  createMcpTrust,
  createPendingApprovals,
  addFollowedPorts,
  storeWaysIn,
  addDeviceRooms,
  createApprovalPin,
];
