import { bookIdsInCategories, type Database } from '@readlib/data';
import type { Kysely } from 'kysely';

interface List {
  /** the list holds the newest `per` ids of its category, or the whole category when shorter */
  per: number;
  /** book ids, newest (highest) first */
  ids: number[];
}

/**
 * The newest books of each category (personal recommendations), kept across catalogue changes that do
 * not alter them: most edits rename or re-describe a book and leave every list as it was. A change is
 * applied from the changed books' current rows; a list that lost a book it cannot replace without
 * reading (a full list whose member left the category) is dropped and read again when next asked for.
 * Concurrent askers of one missing list share one read.
 */
export class NewestLists {
  private readonly lists = new Map<number, List>();
  private readonly reading = new Map<number, { generation: number; per: number; ids: Promise<number[]> }>();
  private generation = 0;

  /** @param keep false: every list is read every time */
  constructor(private readonly keep = true) {}

  /** The list itself when it is no longer than `per` (read-only, changed in place by `apply`). */
  async ids(db: Kysely<Database>, categoryId: number, per: number): Promise<readonly number[]> {
    const hit = this.lists.get(categoryId);
    if (hit && (hit.per >= per || hit.ids.length < hit.per)) {
      return hit.ids.length <= per ? hit.ids : hit.ids.slice(0, per);
    }
    const pending = this.reading.get(categoryId);
    if (pending && pending.generation === this.generation && pending.per >= per) {
      return (await pending.ids).slice(0, per);
    }
    const generation = this.generation;
    const ids = bookIdsInCategories(db, [categoryId], per);
    this.reading.set(categoryId, { generation, per, ids });
    try {
      const read = await ids;
      // a list read across a change might miss it: used for this answer, not kept
      if (generation === this.generation && this.keep) this.lists.set(categoryId, { per, ids: read });
      return read;
    } finally {
      if (this.reading.get(categoryId)?.ids === ids) this.reading.delete(categoryId);
    }
  }

  /** Brings the lists past a change: `changed` ids, `rows` their current rows (a deleted book has none). */
  apply(changed: readonly number[], rows: ReadonlyArray<{ id: number; category_id: number }>): void {
    this.generation++;
    const categoryOf = new Map(rows.map((r) => [r.id, r.category_id]));
    for (const [categoryId, list] of this.lists) {
      for (const id of changed) {
        const was = list.ids.indexOf(id);
        const belongs = categoryOf.get(id) === categoryId;
        const whole = list.ids.length < list.per;
        if (was >= 0 && !belongs) {
          if (!whole) {
            this.lists.delete(categoryId);
            break;
          }
          list.ids.splice(was, 1);
        } else if (was < 0 && belongs && (whole || id > list.ids[list.ids.length - 1]!)) {
          const at = list.ids.findIndex((x) => x < id);
          list.ids.splice(at < 0 ? list.ids.length : at, 0, id);
          if (list.ids.length > list.per) list.ids.pop();
        }
      }
    }
  }

  clear(): void {
    this.generation++;
    this.lists.clear();
  }
}
