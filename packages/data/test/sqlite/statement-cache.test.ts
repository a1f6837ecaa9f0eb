import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/sqlite/statement-cache.js';

describe('SQLite statement cache', () => {
  it('reuses a prepared statement per SQL text and evicts the least recently used', () => {
    const raw = new SQLite(':memory:');
    const db = withStatementCache(raw, 2);
    const a = db.prepare('select 1 as x');
    expect(db.prepare('select 1 as x')).toBe(a);
    db.prepare('select 2 as x');
    db.prepare('select 1 as x'); // a is now the most recent
    db.prepare('select 3 as x'); // evicts "select 2"
    expect(db.prepare('select 1 as x')).toBe(a);
    expect(db.prepare('select 2 as x').all([])).toEqual([{ x: 2 }]);
    db.close();
  });

  it('never hands out a statement that is still iterating', () => {
    const raw = new SQLite(':memory:');
    raw.exec('create table t(v); insert into t values (1), (2), (3);');
    const db = withStatementCache(raw);
    const first = db.prepare('select v from t');
    const it1 = first.iterate([]);
    it1.next();
    const second = db.prepare('select v from t');
    expect(second).not.toBe(first);
    expect(second.all([])).toHaveLength(3);
    it1.return?.();
    db.close();
  });
});
