import { type RawBuilder, sql } from 'kysely';

/*
 * A column as a grouping key that the planner cannot take from an index on that column. Grouping a
 * date window's rows by such a column, SQLite walked that column's whole index in order and filtered
 * every row by date, instead of reading only the window through its date index and grouping in a
 * temporary b-tree, which is several times faster for a window of days. The expressions change no value, and
 * PostgreSQL, which hashes such groups, plans them alike.
 */

/** An integer column, plus zero. */
export const numberKey = (column: string): RawBuilder<number> => sql<number>`${sql.ref(column)} + 0`;

/** A text column, joined with nothing. */
export const textKey = (column: string): RawBuilder<string> => sql<string>`${sql.ref(column)} || ''`;
