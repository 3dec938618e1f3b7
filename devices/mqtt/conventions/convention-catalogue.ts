import { Emitter } from '../../../core/events/emitter.ts';
import { MAX_FOUND_DEVICES } from '../mqtt-device-family.ts';
import type { ConventionDevice } from './convention-device.ts';
import { commandTopicProblem, refusedTopicRoots } from './own-topics.ts';
import { TopicBook } from './topic-book.ts';

/** What a family read from one announcement: a device it offers, or the name of one it does not, and why. */
export type ConventionReading = { ok: true; device: ConventionDevice } | { ok: false; name: string; why: string };

/** A device announced but not offered, and why (`scan` may show it). */
export interface RefusedDevice {
  name: string;
  why: string;
}

/**
 * The devices one convention family has found on the broker, keyed as its announcements are (a
 * friendly name, a topic, a component and object). Two announcements that would share a path or an
 * id are both refused, naming each other — whichever came first — so what is offered never depends
 * on the order messages arrive in. A device that would publish outside its own topics (under a
 * refused root, or another device's base topic, of any family sharing `book`) is refused, saying why.
 * Tells its listeners after every change, its own or another family's bases.
 */
export class ConventionCatalogue {
  private readonly refusedRoots: readonly string[];
  private readonly book: TopicBook;
  /** True while this catalogue writes its bases to the book: its own change is told once. */
  private writing = false;

  constructor(options: { topicPrefix: string; book?: TopicBook | undefined }) {
    this.refusedRoots = refusedTopicRoots(options.topicPrefix);
    this.book = options.book ?? new TopicBook();
    this.book.onChange(() => {
      if (this.writing) return;
      this.standing = undefined;
      this.changes.emit();
    });
  }

  private readonly readings = new Map<string, ConventionReading>();
  private readonly online = new Map<string, boolean>();
  private readonly changes = new Emitter<void>({ name: 'convention devices' });
  /** What `offered()` and `refused()` read, worked out once per change (every link asks on every change). */
  private standing:
    { offered: { device: ConventionDevice; online: boolean }[]; clashes: Map<string, string> } | undefined;

  /** Keeps what one announcement says, replacing what the same key said before. */
  set(key: string, reading: ConventionReading, online = true): void {
    // A new announcement past the budget is ignored; those kept still change.
    if (!this.readings.has(key) && this.readings.size >= MAX_FOUND_DEVICES) return;
    this.readings.set(key, reading);
    this.online.set(key, online);
    this.changed();
  }

  /** Forgets one announcement (an empty retained config, a device gone from a list). */
  delete(key: string): void {
    if (!this.readings.delete(key)) return;
    this.online.delete(key);
    this.changed();
  }

  /** Replaces every announcement at once (a bridge's whole device list), each `online` or not; its first MAX_FOUND_DEVICES only. */
  replaceAll(entries: ReadonlyMap<string, ConventionReading>, online = true): void {
    this.readings.clear();
    this.online.clear();
    for (const [key, reading] of entries) {
      if (this.readings.size >= MAX_FOUND_DEVICES) break;
      this.readings.set(key, reading);
      this.online.set(key, online);
    }
    this.changed();
  }

  /** Whether one announcement's device is online, as far as announcements say (an LWT, a bridge's state). */
  setOnline(key: string, online: boolean): void {
    if (!this.readings.has(key) || this.online.get(key) === online) return;
    this.online.set(key, online);
    this.changed();
  }

  /** The devices offered, in the order of their paths, each with whether its announcement says it is online. */
  offered(): { device: ConventionDevice; online: boolean }[] {
    return this.current().offered;
  }

  /** Whether anything (offered or not) is announced at `path`. */
  announces(path: string): boolean {
    return [...this.readings.values()].some((reading) => reading.ok && reading.device.path === path);
  }

  /** The offered device at `path`, if any. */
  device(path: string): ConventionDevice | undefined {
    return this.offered().find((entry) => entry.device.path === path)?.device;
  }

  /** Whether the offered device at `path` is online as far as its announcements say. */
  isOnline(path: string): boolean {
    return this.offered().find((entry) => entry.device.path === path)?.online ?? false;
  }

  /** Announcements not offered: those refused by their family, and those whose path or id clashes. */
  refused(): RefusedDevice[] {
    const { clashes } = this.current();
    return [...this.readings.entries()].flatMap(([key, reading]) => {
      if (!reading.ok) return [{ name: reading.name, why: reading.why }];
      const clash = clashes.get(key);
      return clash ? [{ name: reading.device.path, why: clash }] : [];
    });
  }

  onChange(listener: () => void): () => void {
    return this.changes.subscribe(listener);
  }

  private current(): NonNullable<ConventionCatalogue['standing']> {
    if (this.standing) return this.standing;
    const clashes = this.clashes();
    const offered = [...this.readings.entries()]
      .flatMap(([key, reading]) =>
        reading.ok && !clashes.has(key) ? [{ device: reading.device, online: this.online.get(key) ?? true }] : [],
      )
      .sort((a, b) => (a.device.path < b.device.path ? -1 : a.device.path > b.device.path ? 1 : 0));
    this.standing = { offered, clashes };
    return this.standing;
  }

  private changed(): void {
    this.standing = undefined;
    this.writing = true;
    try {
      this.book.set(
        this,
        [...this.readings.values()].flatMap((reading) =>
          reading.ok ? reading.device.baseTopics.map((base) => ({ base, path: reading.device.path })) : [],
        ),
      );
    } finally {
      this.writing = false;
    }
    this.changes.emit();
  }

  /**
   * Keys whose device would publish outside its own topics, or shares a path or an id with another's,
   * with the sentence that says so.
   */
  private clashes(): Map<string, string> {
    const others = this.book.byBase();
    const refused = new Map<string, string>();
    for (const [key, reading] of this.readings) {
      if (!reading.ok) continue;
      const { device } = reading;
      const problem = device.commandTopics
        .map((topic) =>
          commandTopicProblem({
            topic,
            path: device.path,
            ownBases: device.baseTopics,
            refusedRoots: this.refusedRoots,
            others,
          }),
        )
        .find((found) => found !== undefined);
      if (problem !== undefined) refused.set(key, problem);
    }
    for (const [key, why] of this.sameNames()) if (!refused.has(key)) refused.set(key, why);
    return refused;
  }

  /** Keys whose device shares a path or an id with another's, with the sentence that says so. */
  private sameNames(): Map<string, string> {
    const byPath = new Map<string, string[]>();
    const byId = new Map<string, string[]>();
    for (const [key, reading] of this.readings) {
      if (!reading.ok) continue;
      byPath.set(reading.device.path, [...(byPath.get(reading.device.path) ?? []), key]);
      byId.set(reading.device.hello.device.id, [...(byId.get(reading.device.hello.device.id) ?? []), key]);
    }
    const clashes = new Map<string, string>();
    for (const [what, groups] of [
      ['path', byPath],
      ['id', byId],
    ] as const)
      for (const [value, keys] of groups) {
        if (keys.length < 2) continue;
        for (const key of keys)
          if (!clashes.has(key))
            clashes.set(
              key,
              `its ${what} ${value} is also announced by ${keys.filter((other) => other !== key).join(', ')}: neither is offered until one is renamed`,
            );
      }
    return clashes;
  }
}
