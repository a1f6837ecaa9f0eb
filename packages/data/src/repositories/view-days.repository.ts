import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../database.js';
import { longRead } from '../sqlite/read-worker.js';
import { DAY_MS, dayOf, reportDay, reportDayStartOf } from './report-days.js';
import { lockDayCut, readDayCut } from './stat-cuts.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A day is rolled up once it has been over this long, so a view recorded just after midnight by a
 * replica whose clock lags still lands in the part the screens read live.
 */
export const ROLL_UP_GRACE_MS = 10 * 60_000;

const MARKER = 'view_days';

/*
 * view_days rows are keyed by the report days (report-days.ts) of the offset recorded with the marker
 * (stat_cuts.utc_offset_ms). Days of two offsets overlap, so rows of two offsets are never mixed: a
 * roll-up asked for another offset discards them all and rolls up again from the views.
 */

/**
 * Where the roll-up made with this offset stands: every view before this report-day midnight is
 * counted in view_days, none after. Undefined before the first roll-up, and while the rows are those
 * of another offset (the next roll-up with this one makes them again). `lock` inside a book write:
 * see readCut.
 */
export async function viewDaysUpto(db: Db, utcOffsetMs: number, lock = false): Promise<number | undefined> {
  const cut = await readDayCut(db, MARKER, lock);
  return cut?.utcOffsetMs === utcOffsetMs ? cut.upto : undefined;
}

/** The offset view_days was rolled up with; undefined before the first roll-up. */
export async function viewDaysOffset(db: Db): Promise<number | undefined> {
  return (await readDayCut(db, MARKER))?.utcOffsetMs;
}

/**
 * Rolls up every report day (at `utcOffsetMs`) over for ROLL_UP_GRACE_MS at `now`, one day with views
 * per transaction (the first time from the oldest view on; days without views are skipped). Rows of
 * another offset are discarded first, so the first roll-up after REPORT_UTC_OFFSET changes makes the
 * whole history again. Idempotent and safe to run from several processes at once: each day is taken
 * under the marker's lock. Run by every migrate (so a deploy, not the first screen after it, does the
 * first, long one over the whole history) and by the screens that read view_days.
 */
export async function rollUpViewDays(db: Kysely<Database>, now: number, utcOffsetMs: number): Promise<void> {
  const closed = reportDayStartOf(now - ROLL_UP_GRACE_MS, utcOffsetMs);
  // the usual case, a screen on a day already rolled up: no write transaction
  if (((await viewDaysUpto(db, utcOffsetMs)) ?? Number.NEGATIVE_INFINITY) >= closed) return;
  let rekeyed = false;
  for (;;) {
    const step = await db.transaction().execute((trx) => rollUpNextDay(trx, closed, utcOffsetMs, !rekeyed));
    if (step === 'done') return;
    if (step === 'rekeyed') rekeyed = true;
  }
}

/**
 * Rolls up the next day with views before `closed`: 'more' while days remain. Rows of another offset
 * are discarded instead ('rekeyed'), once per roll-up: a process configured with another offset
 * re-keying them meanwhile would otherwise have the two take turns for ever. This one then stops
 * ('done') and its screens read the views until the other stops.
 */
async function rollUpNextDay(
  trx: Transaction<Database>,
  closed: number,
  utcOffsetMs: number,
  mayRekey: boolean,
): Promise<'more' | 'rekeyed' | 'done'> {
  let cut = await lockDayCut(trx, MARKER);
  if (cut === undefined) {
    // nothing to roll up yet: the marker waits for the first view rather than guess where days begin
    const any = await trx.selectFrom('views').select('id').limit(1).executeTakeFirst();
    if (!any) return 'done';
    await trx
      .insertInto('stat_cuts')
      .values({ name: MARKER, upto: 0, utc_offset_ms: utcOffsetMs })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    cut = (await lockDayCut(trx, MARKER)) ?? { upto: 0, utcOffsetMs };
  }
  if (cut.utcOffsetMs !== utcOffsetMs) {
    if (!mayRekey) return 'done';
    await trx.deleteFrom('view_days').execute();
    await trx
      .updateTable('stat_cuts')
      .set({ upto: 0, utc_offset_ms: utcOffsetMs })
      .where('name', '=', MARKER)
      .execute();
    return 'rekeyed';
  }
  if (cut.upto >= closed) return 'done';
  const next = await trx
    .selectFrom('views')
    .select((eb) => eb.fn.min('created_at').as('t'))
    .where('created_at', '>=', cut.upto)
    .executeTakeFirst();
  const day = next?.t == null ? closed : Math.min(reportDayStartOf(Number(next.t), utcOffsetMs), closed);
  if (day < closed) {
    // a whole day, authoritative: it replaces any row a lost marker left behind
    await sql`insert into view_days (day, category_id, views)
      select ${sql.lit(reportDay(day, utcOffsetMs))}, b.category_id, count(*) from views v join books b on b.id = v.book_id
      where v.created_at >= ${day} and v.created_at < ${day + DAY_MS}
      group by b.category_id
      on conflict (day, category_id) do update set views = excluded.views`.execute(trx);
  }
  const moved = day < closed ? day + DAY_MS : closed;
  await trx.updateTable('stat_cuts').set({ upto: moved }).where('name', '=', MARKER).execute();
  return moved < closed ? 'more' : 'done';
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
  const cut = await readDayCut(trx, MARKER, true);
  if (cut === undefined) return;
  // the days of the offset the rows were rolled up with, whatever this process is configured with
  const day = dayOf('created_at', cut.utcOffsetMs);
  const days = await trx
    .selectFrom('views')
    .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('book_id', '=', bookId)
    .where('created_at', '<', cut.upto)
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

/**
 * Rolled-up views in [fromDay, toDay) (report day numbers of the roll-up's offset: check it with
 * viewDaysUpto) per day or per category; keys without views absent.
 */
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

/**
 * Every view recorded (the screens' total): the rolled-up days' sum plus the views since the roll-up's
 * cut, so the total does not read the whole history of views. One statement, one snapshot: a roll-up
 * committing between two reads would count its day twice. Before the first roll-up, and while
 * view_days holds the days of another offset, the views themselves are counted.
 */
export async function countAllViews(db: Kysely<Database>, utcOffsetMs: number): Promise<number> {
  const upto = sql`(select upto from stat_cuts where name = ${MARKER} and utc_offset_ms = ${utcOffsetMs})`;
  const [row] = await longRead(
    db,
    db.selectNoFrom(
      sql<number>`case when ${upto} is null then 0 else (select coalesce(sum(views), 0) from view_days) end
        + (select count(*) from views where created_at >= coalesce(${upto}, ${Number.MIN_SAFE_INTEGER}))`.as(
        'n',
      ),
    ),
  );
  return Number(row!.n);
}

/**
 * Recomputes view_days from the views, in report days at `utcOffsetMs`, up to the last day over at
 * `now` (bulk loads, repairs).
 */
export async function rebuildViewDays(db: Kysely<Database>, now: number, utcOffsetMs: number): Promise<void> {
  const closed = reportDayStartOf(now - ROLL_UP_GRACE_MS, utcOffsetMs);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('view_days').execute();
    await trx.deleteFrom('stat_cuts').where('name', '=', MARKER).execute();
    const day = dayOf('v.created_at', utcOffsetMs);
    await sql`insert into view_days (day, category_id, views)
      select ${day}, b.category_id, count(*) from views v join books b on b.id = v.book_id
      where v.created_at < ${closed}
      group by ${day}, b.category_id`.execute(trx);
    await trx
      .insertInto('stat_cuts')
      .values({ name: MARKER, upto: closed, utc_offset_ms: utcOffsetMs })
      .execute();
  });
}
