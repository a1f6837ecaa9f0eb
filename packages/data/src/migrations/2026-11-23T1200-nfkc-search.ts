import { type Kysely, sql } from 'kysely';
import { isPostgres } from './migration-helpers.js';

// Frozen in time: this migration must not import table types or repositories that may change later.

/**
 * The trigram indexes hold the NFKC form of titles, authors, publishers and facet values, so that a
 * title stored in full width (`ＳＱＬ入门`, `第１卷`) is found by the keyword typed plainly (`SQL入门`),
 * as the gram index of 1-2 character keywords always found it. Each text gets a `<column>_nfkc` column,
 * null when NFKC leaves it as it is (nearly always), and the indexes read `coalesce(<column>_nfkc,
 * <column>)`: on SQLite through views that the FTS5 tables use as their content (so an FTS `rebuild`
 * reads the folded text too), on PostgreSQL as expression indexes.
 */
const BOOK_COLUMNS = ['title', 'author', 'publisher'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  if (!pg) await dropSqliteSearch(db);
  for (const col of BOOK_COLUMNS)
    await db.schema.alterTable('books').addColumn(`${col}_nfkc`, 'text').execute();
  await db.schema.alterTable('book_values').addColumn('value_nfkc', 'text').execute();
  await fill(db, 'books', BOOK_COLUMNS);
  await fill(db, 'book_values', ['value']);
  if (pg) {
    for (const col of BOOK_COLUMNS) await pgIndex(db, 'books', col, true);
    await pgIndex(db, 'book_values', 'value', true);
  } else {
    await createSqliteSearch(db, true);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  if (pg) {
    for (const col of BOOK_COLUMNS) await pgIndex(db, 'books', col, false);
    await pgIndex(db, 'book_values', 'value', false);
  } else {
    await dropSqliteSearch(db);
    await sql`drop view book_search_text`.execute(db);
    await sql`drop view book_value_search_text`.execute(db);
  }
  for (const col of BOOK_COLUMNS) await db.schema.alterTable('books').dropColumn(`${col}_nfkc`).execute();
  await db.schema.alterTable('book_values').dropColumn('value_nfkc').execute();
  if (!pg) await createSqliteSearch(db, false);
}

/** Sets `<column>_nfkc` where NFKC changes the text, in pages along the primary key. */
async function fill(db: Kysely<any>, table: string, columns: readonly string[]): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom(table)
      .select(['id', ...columns])
      .where('id', '>', after)
      .orderBy('id')
      .limit(5000)
      .execute();
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1]!.id);
    for (const row of rows) {
      const set: Record<string, string> = {};
      for (const col of columns) {
        const folded = String(row[col]).normalize('NFKC');
        if (folded !== row[col]) set[`${col}_nfkc`] = folded;
      }
      if (Object.keys(set).length > 0)
        await db.updateTable(table).set(set).where('id', '=', row.id).execute();
    }
  }
}

/**
 * The trigram index over the folded text. The index over the text stays for the previous build, whose
 * replicas still search with it during a rolling upgrade (docs/deployment.md: expand, then contract).
 */
async function pgIndex(db: Kysely<any>, table: string, col: string, create: boolean): Promise<void> {
  const name = sql.id(`${table}_${col}_nfkc_trgm`);
  if (!create) return void (await sql`drop index ${name}`.execute(db));
  const text = sql`coalesce(${sql.id(`${col}_nfkc`)}, ${sql.id(col)})`;
  await sql`create index ${name} on ${sql.id(table)} using gin ((${text}) gin_trgm_ops)`.execute(db);
}

/** The trigram FTS5 tables and every trigger that writes them (the gram tables' own writes with them). */
async function dropSqliteSearch(db: Kysely<any>): Promise<void> {
  for (const t of [
    'books_ai',
    'books_ad',
    'books_au',
    'books_title_ai',
    'books_title_ad',
    'books_title_au',
  ]) {
    await sql`drop trigger ${sql.id(t)}`.execute(db);
  }
  for (const t of ['book_values_ai', 'book_values_ad']) await sql`drop trigger ${sql.id(t)}`.execute(db);
  for (const t of ['book_fts', 'book_title_fts', 'book_value_fts'])
    await sql`drop table ${sql.id(t)}`.execute(db);
}

/**
 * The trigram FTS5 tables over the folded text (`folded`) or, as before this migration, over the text,
 * filled with `rebuild`, and the triggers that keep them and the gram tables in step.
 */
async function createSqliteSearch(db: Kysely<any>, folded: boolean): Promise<void> {
  // a column of a trigger's `new` or `old` row, or of the view (no row), as the index reads it
  const f = (col: string, row?: 'new' | 'old') => {
    const at = row ? `${row}.` : '';
    return folded ? `coalesce(${at}${col}_nfkc, ${at}${col})` : `${at}${col}`;
  };
  const of = (row: 'new' | 'old', cols: readonly string[]) => cols.map((c) => f(c, row)).join(', ');
  const books = folded ? 'book_search_text' : 'books';
  const values = folded ? 'book_value_search_text' : 'book_values';
  if (folded) {
    const cols = BOOK_COLUMNS.map((c) => `${f(c)} as ${c}`).join(', ');
    await sql.raw(`create view book_search_text as select id, ${cols} from books`).execute(db);
    await sql
      .raw(`create view book_value_search_text as select id, ${f('value')} as value from book_values`)
      .execute(db);
  }
  const exec = (text: string) => sql.raw(text).execute(db);
  await exec(
    `create virtual table book_fts using fts5(title, author, publisher, content='${books}', content_rowid='id', tokenize='trigram')`,
  );
  await exec(
    `create virtual table book_title_fts using fts5(title, content='${books}', content_rowid='id', tokenize='trigram')`,
  );
  await exec(
    `create virtual table book_value_fts using fts5(value, content='${values}', content_rowid='id', tokenize='trigram')`,
  );
  for (const t of ['book_fts', 'book_title_fts', 'book_value_fts'])
    await exec(`insert into ${t}(${t}) values ('rebuild')`);

  const all = BOOK_COLUMNS;
  const watched = folded ? [...all, ...all.map((c) => `${c}_nfkc`)] : all;
  const addFts = `insert into book_fts(rowid, title, author, publisher) values (new.id, ${of('new', all)});`;
  const delFts = `insert into book_fts(book_fts, rowid, title, author, publisher) values ('delete', old.id, ${of('old', all)});`;
  const addGrams = 'insert into book_grams(rowid, grams) values (new.id, new.grams);';
  const delGrams = `insert into book_grams(book_grams, rowid, grams) values ('delete', old.id, old.grams);`;
  await exec(`create trigger books_ai after insert on books begin ${addFts} ${addGrams} end`);
  await exec(`create trigger books_ad after delete on books begin ${delFts} ${delGrams} end`);
  await exec(
    `create trigger books_au after update of ${watched.join(', ')}, grams on books begin ${delFts} ${delGrams} ${addFts} ${addGrams} end`,
  );
  const addTitle = `insert into book_title_fts(rowid, title) values (new.id, ${of('new', ['title'])});`;
  const delTitle = `insert into book_title_fts(book_title_fts, rowid, title) values ('delete', old.id, ${of('old', ['title'])});`;
  await exec(`create trigger books_title_ai after insert on books begin ${addTitle} end`);
  await exec(`create trigger books_title_ad after delete on books begin ${delTitle} end`);
  await exec(
    `create trigger books_title_au after update of ${folded ? 'title, title_nfkc' : 'title'} on books begin ${delTitle} ${addTitle} end`,
  );
  const addValue = `insert into book_value_fts(rowid, value) values (new.id, ${of('new', ['value'])});
    insert into book_value_grams(rowid, grams) values (new.id, new.grams);`;
  const delValue = `insert into book_value_fts(book_value_fts, rowid, value) values ('delete', old.id, ${of('old', ['value'])});
    insert into book_value_grams(book_value_grams, rowid, grams) values ('delete', old.id, old.grams);`;
  await exec(`create trigger book_values_ai after insert on book_values begin ${addValue} end`);
  await exec(`create trigger book_values_ad after delete on book_values begin ${delValue} end`);
}
