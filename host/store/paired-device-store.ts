import type Database from 'better-sqlite3';
import { z } from 'zod';
import { deviceIdentitySchema, deviceToolSchema } from '../../devices/protocol/frame-schema.ts';
import type { WayIn, WayInOptions } from '../../devices/links/way-in.ts';
import type { PairedDevice, PairingStore } from '../../devices/pairing/pairing-store.ts';
import { profileSource } from '../../devices/profiles/resolve-profile.ts';
import { pinnedDeclarationSchema } from '../../devices/registry/pinned-declaration.ts';
import {
  parseStoredJson,
  reportInvalidRow,
  toStoredJson,
  type InvalidRowHandler,
  type InvalidRowReport,
} from './parse-stored-row.ts';
import { StoreError } from './store-error.ts';
import { MOVE_REASONS } from '../../devices/discovery/move-reason.ts';
import { roomNameSchema, sameRoom } from '../../core/text/room-name.ts';

export type { PairedDevice };

export interface PairedDeviceStoreOptions {
  db: Database.Database;
  /** The ways in, to check a pairing's options and whether two pairings may share a path; absent: no two may. */
  waysIn?: readonly WayIn[];
  /** Given: rows that fail validation are skipped and reported here. Absent: they throw StoreError `invalid_row`. */
  onInvalidRow?: InvalidRowHandler;
}

/** One row of `paired_devices`, by the names `COLUMNS` gives it (JSON columns as their text). */
type DeviceRow = {
  deviceId: string;
  path: string;
  alias: string;
  room: string | null;
  identity: string;
  tools: string;
  grants: string;
  pairedAt: number;
  confirmedIdentity: number;
  profile: string | null;
  wayIn: string;
  wayInOptions: string | null;
  pinnedDeclaration: string | null;
  serialLink: string | null;
  movedFrom: string | null;
};

const COLUMNS =
  'device_id AS deviceId, path, alias, room, identity, tools, grants, paired_at AS pairedAt, confirmed_identity AS confirmedIdentity, profile, way_in AS wayIn, way_in_options AS wayInOptions, pinned_declaration AS pinnedDeclaration, serial_link AS serialLink, moved_from AS movedFrom';
const toolsSchema = z.array(deviceToolSchema);
const grantsSchema = z.array(z.string());
const wayInSchema = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'a way in: lower-case letters, digits and -');
const wayInOptionsSchema = z.record(z.string(), z.unknown());
/** A by-id link's name: one file name, as udev makes them. */
const serialLinkSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^/\p{Cc}]+$/u, 'one file name, no control characters');
const movedFromSchema = z.strictObject({
  path: z.string().min(1).max(4096),
  at: z.number().int().nonnegative(),
  because: z.enum(MOVE_REASONS),
});
/** A pinned declaration whose profile content is the one its sha256 names. */
const storedPinnedSchema = pinnedDeclarationSchema.refine(
  (pinned) => pinned.profile === undefined || profileSource(pinned.profile.content).sha256 === pinned.profile.sha256,
  { message: 'the pinned profile content does not match its sha256', path: ['profile', 'sha256'] },
);

/**
 * The paired devices and their grants, one row per device (keyed by its identity id), each with its
 * way in and that way in's options. One device per path, except where its way in lets two share
 * one (the units of one bus, each with its own unit).
 */
export class PairedDeviceStore implements PairingStore {
  private readonly onInvalidRow: InvalidRowHandler | undefined;
  private readonly waysIn: readonly WayIn[];
  private readonly statements;

  constructor(options: PairedDeviceStoreOptions) {
    const { db } = options;
    this.onInvalidRow = options.onInvalidRow;
    this.waysIn = options.waysIn ?? [];
    this.statements = {
      list: db.prepare<[], DeviceRow>(`SELECT ${COLUMNS} FROM paired_devices ORDER BY paired_at, device_id`),
      byId: db.prepare<[string], DeviceRow>(`SELECT ${COLUMNS} FROM paired_devices WHERE device_id = ?`),
      byPath: db.prepare<[string], DeviceRow>(
        `SELECT ${COLUMNS} FROM paired_devices WHERE path = ? ORDER BY paired_at`,
      ),
      // A row in, as a row out: the named parameters are the columns' aliases.
      upsert: db.prepare<DeviceRow>(
        `INSERT INTO paired_devices (device_id, path, alias, room, identity, tools, grants, paired_at, confirmed_identity, profile, way_in, way_in_options, pinned_declaration, serial_link, moved_from)
         VALUES (@deviceId, @path, @alias, @room, @identity, @tools, @grants, @pairedAt, @confirmedIdentity, @profile, @wayIn, @wayInOptions, @pinnedDeclaration, @serialLink, @movedFrom)
         ON CONFLICT (device_id) DO UPDATE SET path = excluded.path, alias = excluded.alias, room = excluded.room, identity = excluded.identity,
           tools = excluded.tools, grants = excluded.grants, paired_at = excluded.paired_at, confirmed_identity = excluded.confirmed_identity,
           profile = excluded.profile, way_in = excluded.way_in, way_in_options = excluded.way_in_options, pinned_declaration = excluded.pinned_declaration,
           serial_link = excluded.serial_link, moved_from = excluded.moved_from`,
      ),
      forget: db.prepare<[string]>('DELETE FROM paired_devices WHERE device_id = ?'),
      rooms: db.prepare<[string], { room: string }>(
        'SELECT DISTINCT room FROM paired_devices WHERE room IS NOT NULL AND device_id <> ? ORDER BY paired_at, device_id',
      ),
    };
    // A new pairing replaces the old one whole: its row (and by trigger its standing approvals) goes in the same transaction.
    this.pairAnew = db.transaction((row: DeviceRow) => {
      this.statements.forget.run(row.deviceId);
      this.statements.upsert.run(row);
    });
  }

  private readonly pairAnew: (row: DeviceRow) => void;

  /** Every paired device, in pairing order. */
  list(): PairedDevice[] {
    return this.statements.list.all().flatMap((row) => this.parse(row) ?? []);
  }

  get(deviceId: string): PairedDevice | undefined {
    const row = this.statements.byId.get(deviceId);
    return row === undefined ? undefined : this.parse(row);
  }

  /** The device paired at a path (the first paired, when units of a bus share it). */
  getByPath(path: string): PairedDevice | undefined {
    const row = this.statements.byPath.get(path);
    return row === undefined ? undefined : this.parse(row);
  }

  /**
   * Pairs a device, or updates its pairing (a new path, alias, tools, grants or pinned declaration);
   * `anew` replaces whatever was stored under its id, standing approvals included. StoreError
   * `invalid_value` when the record does not validate, a grant names no tool of the device, or the
   * path belongs to another paired device (forget that one first) — unless their way in lets them
   * share it (units of one bus: other unit ids, same bus settings).
   */
  save(device: PairedDevice, options: { anew?: boolean } = {}): void {
    const identity = deviceIdentitySchema.safeParse(device.identity);
    if (!identity.success) throw invalid(`device identity: ${z.prettifyError(identity.error).replaceAll('\n', ' ')}`);
    const tools = toolsSchema.safeParse(device.tools);
    if (!tools.success)
      throw invalid(`device ${identity.data.id} tools: ${z.prettifyError(tools.error).replaceAll('\n', ' ')}`);
    if (device.alias.trim() === '') throw invalid(`device ${identity.data.id}: the alias is empty`);
    const room = device.room === undefined ? undefined : roomNameSchema.safeParse(device.room);
    if (room !== undefined && !room.success)
      throw invalid(`device ${identity.data.id} room: ${room.error.issues.map((issue) => issue.message).join('; ')}`);
    const toolNames = new Set(tools.data.map((tool) => tool.name));
    const unknownGrants = device.grants.filter((grant) => !toolNames.has(grant));
    if (unknownGrants.length > 0)
      throw invalid(`device ${identity.data.id}: grants name tools it does not have (${unknownGrants.join(', ')})`);
    const wayIn = wayInSchema.safeParse(device.wayIn);
    if (!wayIn.success)
      throw invalid(`device ${identity.data.id} way in: ${z.prettifyError(wayIn.error).replaceAll('\n', ' ')}`);
    const way = this.waysIn.find((candidate) => candidate.kind === wayIn.data);
    const checked = (way?.optionsSchema ?? wayInOptionsSchema).safeParse(device.options ?? {});
    if (!checked.success)
      throw invalid(
        `device ${identity.data.id} ${way?.label ?? wayIn.data} placement: ${z.prettifyError(checked.error).replaceAll('\n', ' ')}`,
      );
    const wayInOptions = checked.data as WayInOptions;
    const pinned = device.pinned === undefined ? undefined : storedPinnedSchema.safeParse(device.pinned);
    if (pinned !== undefined && !pinned.success)
      throw invalid(
        `device ${identity.data.id} pinned declaration: ${z.prettifyError(pinned.error).replaceAll('\n', ' ')}`,
      );
    const serialLink = device.serialLink === undefined ? undefined : serialLinkSchema.safeParse(device.serialLink);
    if (serialLink !== undefined && !serialLink.success)
      throw invalid(
        `device ${identity.data.id} by-id link: ${z.prettifyError(serialLink.error).replaceAll('\n', ' ')}`,
      );
    const movedFrom = device.movedFrom === undefined ? undefined : movedFromSchema.safeParse(device.movedFrom);
    if (movedFrom !== undefined && !movedFrom.success)
      throw invalid(`device ${identity.data.id} moved from: ${z.prettifyError(movedFrom.error).replaceAll('\n', ' ')}`);
    for (const holder of this.statements.byPath.all(device.path)) {
      if (holder.deviceId === identity.data.id) continue;
      const problem = this.sharingProblem(holder, { wayIn: wayIn.data, options: wayInOptions });
      if (problem !== undefined)
        throw invalid(
          `${device.path} is paired with device ${holder.deviceId}${problem}; forget it before pairing ${identity.data.id} there`,
        );
    }
    const row: DeviceRow = {
      deviceId: identity.data.id,
      path: device.path,
      alias: device.alias,
      room: room?.data === undefined ? null : this.spellingOf(room.data, identity.data.id),
      identity: toStoredJson(identity.data, 'a device identity'),
      tools: toStoredJson(tools.data, 'device tools'),
      grants: toStoredJson([...new Set(device.grants)], 'device grants'),
      pairedAt: Math.trunc(device.pairedAt),
      confirmedIdentity: device.confirmedIdentity ? 1 : 0,
      profile: device.profile ?? null,
      wayIn: wayIn.data,
      wayInOptions: Object.keys(wayInOptions).length > 0 ? toStoredJson(wayInOptions, 'way-in options') : null,
      pinnedDeclaration: pinned?.data ? toStoredJson(pinned.data, 'a pinned declaration') : null,
      serialLink: serialLink?.data ?? null,
      movedFrom: movedFrom?.data ? toStoredJson(movedFrom.data, 'where it moved from') : null,
    };
    if (options.anew) this.pairAnew(row);
    else this.statements.upsert.run(row);
  }

  /** Removes the device and its grants; false when it was not paired. */
  forget(deviceId: string): boolean {
    return this.statements.forget.run(deviceId).changes > 0;
  }

  private parse(row: DeviceRow): PairedDevice | undefined {
    const key = row.deviceId;
    const identity = parseStoredJson({
      schema: deviceIdentitySchema,
      text: row.identity,
      table: 'paired_devices',
      key,
    });
    const tools = parseStoredJson({ schema: toolsSchema, text: row.tools, table: 'paired_devices', key });
    const grants = parseStoredJson({ schema: grantsSchema, text: row.grants, table: 'paired_devices', key });
    if (!identity.ok) return this.skip(identity.report);
    if (!tools.ok) return this.skip(tools.report);
    if (!grants.ok) return this.skip(grants.report);
    const options =
      row.wayInOptions === null
        ? undefined
        : parseStoredJson({ schema: wayInOptionsSchema, text: row.wayInOptions, table: 'paired_devices', key });
    if (options !== undefined && !options.ok) return this.skip(options.report);
    const pinned =
      row.pinnedDeclaration === null
        ? undefined
        : parseStoredJson({ schema: storedPinnedSchema, text: row.pinnedDeclaration, table: 'paired_devices', key });
    if (pinned !== undefined && !pinned.ok) return this.skip(pinned.report);
    // Where it was followed from is only said to the person: one that does not read is not said, the device stays.
    const movedFrom =
      row.movedFrom === null
        ? undefined
        : parseStoredJson({ schema: movedFromSchema, text: row.movedFrom, table: 'paired_devices', key });
    const serialLink = row.serialLink === null ? undefined : serialLinkSchema.safeParse(row.serialLink);
    if (identity.value.id !== row.deviceId)
      return this.skip({
        table: 'paired_devices',
        key,
        detail: `identity id ${identity.value.id} differs from the row's ${row.deviceId}`,
      });
    return {
      path: row.path,
      alias: row.alias,
      ...(row.room !== null ? { room: row.room } : {}),
      identity: identity.value,
      tools: tools.value,
      grants: grants.value,
      pairedAt: row.pairedAt,
      confirmedIdentity: row.confirmedIdentity === 1,
      ...(row.profile !== null ? { profile: row.profile } : {}),
      wayIn: row.wayIn,
      ...(options?.ok ? { options: options.value } : {}),
      ...(pinned?.ok ? { pinned: pinned.value } : {}),
      ...(serialLink?.success ? { serialLink: serialLink.data } : {}),
      ...(movedFrom?.ok ? { movedFrom: movedFrom.value } : {}),
    };
  }

  /**
   * Why a pairing may not share its path with `holder`, or undefined when it may: only two of one
   * way in may, when that way in says so (other units of one bus at the same settings).
   */
  private sharingProblem(holder: DeviceRow, device: { wayIn: string; options: WayInOptions }): string | undefined {
    const way = this.waysIn.find((candidate) => candidate.kind === device.wayIn);
    if (way === undefined || holder.wayIn !== device.wayIn) return '';
    const parsed =
      holder.wayInOptions === null
        ? { ok: true as const, value: {} }
        : parseStoredJson({
            schema: wayInOptionsSchema,
            text: holder.wayInOptions,
            table: 'paired_devices',
            key: holder.deviceId,
          });
    if (!parsed.ok) return ' (its record does not read)';
    return way.sharingProblem(device.options, parsed.value);
  }

  /** A room as the home already spells it (another device's room of the same name, whatever its case), else as given. */
  private spellingOf(room: string, deviceId: string): string {
    return this.statements.rooms.all(deviceId).find((other) => sameRoom(other.room, room))?.room ?? room;
  }

  private skip(report: InvalidRowReport): undefined {
    reportInvalidRow(report, this.onInvalidRow);
    return undefined;
  }
}

function invalid(detail: string): StoreError {
  return new StoreError({ kind: 'invalid_value', detail });
}
