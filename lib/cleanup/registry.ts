/** The run-wide record of creations and deletions, and the order things are deleted in. */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Resource, ResourceKind } from '../protocol.js';

/** Deletion order: endpoints before the templates they use, pods before volumes they mount. */
const ORDER: ResourceKind[] = ['endpoint', 'pod', 'template', 'secret', 'networkVolume'];

export const keyOf = (r: Pick<Resource, 'kind' | 'id' | 'name'>): string => `${r.kind}:${r.kind === 'template' ? r.name : r.id ?? r.name}`;


/** The run-wide record of creations and deletions (JSON lines; appends are whole lines). */
export class Registry {
  constructor(readonly file: string) {}

  add(r: Resource): void { this.#write({ op: 'add', at: Date.now(), ...r }); }
  /**
   * A deletion answered with the key of role `auth`: it ends the creation of that key only. A
   * deletePod that another account's key sent answers 404 ("not yours") and deletes nothing, so
   * it never marks the resource deleted (a line without `auth`, written before, ends any).
   */
  done(r: Pick<Resource, 'kind' | 'id' | 'name'> & { auth?: Resource['auth'] }): void {
    this.#write({ op: 'done', key: keyOf(r), at: Date.now(), ...(r.auth ? { auth: r.auth } : {}) });
  }

  /** Every creation of the run, with when it was deleted (absent: not deleted, or not seen deleted). */
  records(): (Resource & { deletedAt?: number })[] {
    if (!existsSync(this.file)) return [];
    // Every creation counts, also one under a name an earlier, deleted one had (templates are
    // keyed by name); a deletion ends the latest creation of its key still open.
    const all: (Resource & { deletedAt?: number })[] = [];
    const open = new Map<string, Resource & { deletedAt?: number }>();
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry: { op: string; key?: string; at?: number } & Resource;
      try { entry = JSON.parse(line) as typeof entry; } catch { continue; }
      if (entry.op === 'add') {
        const { op: _op, ...r } = entry;
        if (open.has(keyOf(r))) continue;
        all.push(r);
        open.set(keyOf(r), r);
      } else if (entry.op === 'done' && entry.key) {
        const r = open.get(entry.key);
        if (r && endsIt(entry, r)) { r.deletedAt = entry.at ?? Date.now(); open.delete(entry.key); }
      }
    }
    return all;
  }

  /** Everything added and not deleted, in deletion order, and how many were created. */
  outstanding(): { created: number; open: Resource[] } {
    if (!existsSync(this.file)) return { created: 0, open: [] };
    const open = new Map<string, Resource>();
    let created = 0;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry: { op: string; key?: string } & Resource;
      try { entry = JSON.parse(line) as typeof entry; } catch { continue; }
      if (entry.op === 'add') {
        const { op: _op, ...r } = entry;
        if (!open.has(keyOf(r))) created += 1;
        open.set(keyOf(r), r);
      } else if (entry.op === 'done' && entry.key) {
        const r = open.get(entry.key);
        if (r && endsIt(entry, r)) open.delete(entry.key);
      }
    }
    return { created, open: sortForDeletion([...open.values()]) };
  }

  /** Ids of `kind` that tests other than `exceptTest` created in this run. */
  knownIds(kind: ResourceKind, exceptTest: string): Set<string> {
    const ids = new Set<string>();
    if (!existsSync(this.file)) return ids;
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line.includes('"op":"add"')) continue;
      try {
        const r = JSON.parse(line) as Resource;
        if (r.kind === kind && r.id && r.test !== exceptTest) ids.add(r.id);
      } catch { /* a line being written */ }
    }
    return ids;
  }

  #write(entry: object): void {
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, JSON.stringify(entry) + '\n');
  }
}

/** Whether a deletion line ends this creation: sent with the creator's key (or recorded without a key). */
const endsIt = (done: { auth?: unknown }, created: Resource): boolean => done.auth === undefined || done.auth === created.auth;

export const sortForDeletion = <T extends Pick<Resource, 'kind'>>(list: T[]): T[] => [...list].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind));
