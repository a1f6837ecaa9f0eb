import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import { lockCut, readCut } from './stat-cuts.js';

type Db = Kysely<Database> | Transaction<Database>;

export const DAY_MS = 86_400_000;

/**
 * A day is rolled up once it has been over this long, so a view recorded just after midnight by a
 * replica whose clock lags still lands in the part the screens read live.
 */
export const ROLL_UP_GRACE_MS = 10 * 60_000;

const MARKER = 'view_days';
const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * Where the roll-up stands: every view before this UTC midnight is counted in view_days, none after.
 * Undefined before the first roll-up. `lock` inside a book write: see readCut.
 */
export const viewDaysUpto = (db: Db, lock = false): Promise<number | undefined> => readCut(db, MARKER, lock);

/** UTC day number (epoch ms / DAY_MS) of an epoch-ms column: integer division on both dialects. */
export const dayOf = (column: string) => sql<number>`${sql.ref(column)} / ${sql.lit(DAY_MS)}`;

/**
 * Rolls up every day over for ROLL_UP_GRACE_MS at `now`, one day with views per transaction (the first
 * time from the oldest view on; days without views are skipped). Idempotent and safe to run from
 * several processes at once: each day is taken under the marker's lock. Run by every migrate (so a
 * deploy, not the first screen after it, does the first, long one: 10 s for 60 days of 4M views) and
 * by the screens that read view_days.
 */
export async function rollUpViewDays(db: Kysely<Database>, now: number): Promise<void> {
  const closed = dayStart(now - ROLL_UP_GRACE_MS);
  // the usual case, a screen on a day already rolled up: no write transaction
  if (((await viewDaysUpto(db)) ?? Number.NEGATIVE_INFINITY) >= closed) return;
  while (await db.transaction().execute((trx) => rollUpNextDay(trx, closed))) {}
}

/** Rolls up the next day with views before `closed`; false when there is none left. */
async function rollUpNextDay(trx: Transaction<Database>, closed: number): Promise<boolean> {
  let upto = await lockCut(trx, MARKER);
  if (upto === undefined) {
    // nothing to roll up yet: the marker waits for the first view rather than guess where days begin
    const any = await trx.selectFrom('views').select('id').limit(1).executeTakeFirst();
    if (!any) return false;
    await trx
      .insertInto('stat_cuts')
      .values({ name: MARKER, upto: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    upto = (await lockCut(trx, MARKER)) ?? 0;
  }
  if (upto >= closed) return false;
  const next = await trx
    .selectFrom('views')
    .select((eb) => eb.fn.min('created_at').as('t'))
    .where('created_at', '>=', upto)
    .executeTakeFirst();
  const day = next?.t == null ? closed : Math.min(dayStart(Number(next.t)), closed);
  if (day < closed) {
    // a whole day, authoritative: it replaces any row a lost marker left behind
    await sql`insert into view_days (day, category_id, views)
      select ${sql.lit(day / DAY_MS)}, b.category_id, count(*) from views v join books b on b.id = v.book_id
      where v.created_at >= ${day} and v.created_at < ${day + DAY_MS}
      group by b.category_id
      on conflict (day, category_id) do update set views = excluded.views`.execute(trx);
  }
  const moved = day < closed ? day + DAY_MS : closed;
  await trx.updateTable('stat_cuts').set({ upto: moved }).where('name', '=', MARKER).execute();
  return moved < closed;
}

/**
 * Part of a book's deletion (`to` undefined) or category change, before its views go or move: takes
 * the book's rolled-up views out of its old category's days and, for a change, into the new one's.
 */
export async function moveRolledUpViews(
  trx: Transaction<Database>,
  bookId: number,
  from: number,
  to?: number,
): Promise<void> {
  const upto = await viewDaysUpto(trx, true);
  if (upto === undefined) return;
  const day = dayOf('created_at');
  const days = await trx
    .selectFrom('views')
    .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('book_id', '=', bookId)
    .where('created_at', '<', upto)
    .groupBy(day)
    .execute();
  for (const d of days) {
    const n = Number(d.n);
    await trx
      .updateTable('view_days')
      .set((eb) => ({ views: eb('views', '-', n) }))
      .where('day', '=', Number(d.day))
      .where('category_id', '=', from)
      .execute();
    await trx
      .deleteFrom('view_days')
      .where('day', '=', Number(d.day))
      .where('category_id', '=', from)
      .where('views', '<=', 0)
      .execute();
    if (to === undefined) continue;
    await trx
      .insertInto('view_days')
      .values({ day: Number(d.day), category_id: to, views: n })
      .onConflict((oc) =>
        oc.columns(['day', 'category_id']).doUpdateSet((eb) => ({ views: eb('view_days.views', '+', n) })),
      )
      .execute();
  }
}

/** Rolled-up views in [fromDay, toDay) (day numbers) per day or per category; keys without views absent. */
export async function rolledUpViews(
  db: Kysely<Database>,
  fromDay: number,
  toDay: number,
  per: 'day' | 'category_id',
): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('view_days')
    .select([`${per} as key`, (eb) => eb.fn.sum<number>('views').as('n')])
    .where('day', '>=', fromDay)
    .where('day', '<', toDay)
    .groupBy(per)
    .execute();
  return new Map(rows.map((r) => [Number(r.key), Number(r.n)]));
}

/** Recomputes view_days from the views, up to the last day over at `now` (bulk loads, repairs). */
export async function rebuildViewDays(db: Kysely<Database>, now: number): Promise<void> {
  const closed = dayStart(now - ROLL_UP_GRACE_MS);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('view_days').execute();
    await trx.deleteFrom('stat_cuts').where('name', '=', MARKER).execute();
    const day = dayOf('v.created_at');
    await sql`insert into view_days (day, category_id, views)
      select ${day}, b.category_id, count(*) from views v join books b on b.id = v.book_id
      where v.created_at < ${closed}
      group by ${day}, b.category_id`.execute(trx);
    await trx.insertInto('stat_cuts').values({ name: MARKER, upto: closed }).execute();
  });
}
