import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/index.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

// The database holds operators' password hashes and every reader's openId, shelf and views.
describe('the SQLite file a service creates', () => {
  let dir: string;
  const umask = process.umask();
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-mode-'));
    // the usual default, which leaves new files readable by every user
    process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is readable by its owner alone, and so are its -wal and -shm files', async () => {
    const file = join(dir, 'library.db');
    const h = createDb({ dialect: 'sqlite', file });
    await sql`create table t (x integer)`.execute(h.db);
    await sql`insert into t values (1)`.execute(h.db);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      expect(existsSync(f), f).toBe(true);
      expect([f, modeOf(f).toString(8)]).toEqual([f, '600']);
    }
    await h.destroy();
  });

  it('a file that exists keeps the mode its owner gave it', async () => {
    const file = join(dir, 'shared.db');
    writeFileSync(file, '');
    chmodSync(file, 0o640);
    const h = createDb({ dialect: 'sqlite', file });
    await sql`select 1`.execute(h.db);
    await h.destroy();
    expect(modeOf(file).toString(8)).toBe('640');
  });
});
