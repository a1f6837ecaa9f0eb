/**
 * Whether a database error is a foreign key that names a row no longer there: SQLite's extended code
 * or PostgreSQL's SQLSTATE 23503. A reader's write (a view, a shelf entry, a rating) meets it when an
 * operator deleted the book between the request's read of it and its write.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
