import { sql } from 'kysely';

/*
 * The days of the report screens (decisions.md §5) begin at midnight of a fixed offset from UTC
 * (REPORT_UTC_OFFSET, in ms east): day n lasts DAY_MS from n * DAY_MS - offset, so n is the day
 * number of the local date, which labels it. A fixed offset rather than a zone keeps every day equally
 * long, which view_days, keyed by day number, relies on.
 */

export const DAY_MS = 86_400_000;

/** Report day number of an epoch-ms instant. */
export const reportDay = (ms: number, utcOffsetMs: number): number => Math.floor((ms + utcOffsetMs) / DAY_MS);

/** Epoch ms at which a report day begins. */
export const reportDayStart = (day: number, utcOffsetMs: number): number => day * DAY_MS - utcOffsetMs;

/** Start of the report day an instant falls in. */
export const reportDayStartOf = (ms: number, utcOffsetMs: number): number =>
  reportDayStart(reportDay(ms, utcOffsetMs), utcOffsetMs);

/**
 * Report day number of an epoch-ms column: integer division on both dialects, which floors because a
 * shifted timestamp of any real date is positive. Literals, not parameters, so PostgreSQL sees the
 * selected and the grouped expression as the same.
 */
export const dayOf = (column: string, utcOffsetMs: number) =>
  sql<number>`(${sql.ref(column)} + ${sql.lit(utcOffsetMs)}) / ${sql.lit(DAY_MS)}`;
