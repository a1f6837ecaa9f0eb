import type SQLite from 'better-sqlite3';

/** A connection's statements, prepared once per SQL text; usable as Kysely's `SqliteDatabase`. */
export interface StatementSource {
  prepare(sql: string): SQLite.Statement;
  close(): void;
}

/**
 * Kysely's SQLite driver prepares every query anew, and for the reader API's short queries preparing
 * costs about half as much as running them. The services issue a few dozen distinct SQL texts (values are
 * bound parameters), so a small cache keyed by the text reuses nearly every statement. A statement that
 * is still being iterated is never handed out twice.
 */
export function withStatementCache(sqlite: SQLite.Database, max = 500): StatementSource {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SQLite.Statement {
      const hit = cache.get(sql);
      if (hit && !hit.busy) {
        // refresh its place so the least recently used text is the one evicted
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = sqlite.prepare(sql);
      if (!hit) {
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}
