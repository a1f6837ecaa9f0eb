import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, DAY_MS, insertBook, migrations, recordView, upsertUser } from '@readlib/data';
import { sampleBook, testMigrator } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// README: `pnpm cli migrate` applies database migrations and exits; it says what it applied.
describe('pnpm cli migrate', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-migrate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const migrate = async () => {
    const { code, out } = await runCli(dir, ['migrate']);
    expect(code).toBe(0);
    return out.split('\n');
  };

  it('names each migration it applies, then reports an up-to-date schema', async () => {
    const names = Object.keys(migrations).sort();
    expect(await migrate()).toEqual([...names.map((n) => `applied ${n}`), 'database schema migrated']);
    expect(await migrate()).toEqual(['database schema is up to date']);
  }, 60_000);

  it('decisions.md §5: rolls up the views in the days of REPORT_UTC_OFFSET, and refuses a malformed one', async () => {
    await migrate();
    // 20:00 UTC three days ago: the next day at +08:00
    const at = (Math.floor(Date.now() / DAY_MS) - 3) * DAY_MS + 20 * 3_600_000;
    const h = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    try {
      const book = await insertBook(h.db, sampleBook({ category_id: 2 }), []);
      const user = await upsertUser(h.db, { openId: 'o', platform: 'wx' }, at);
      await recordView(h.db, user.id, book.id, at);
    } finally {
      await h.destroy();
    }
    const { code, out } = await runCli(dir, ['migrate'], { REPORT_UTC_OFFSET: '+08:00' });
    expect([code, out]).toEqual([0, 'database schema is up to date']);
    const check = createDb({ dialect: 'sqlite', file: join(dir, 'library.db') });
    try {
      const rows = await check.db.selectFrom('view_days').selectAll().execute();
      expect(rows.map((r) => [r.day, r.category_id, r.views])).toEqual([[Math.floor(at / DAY_MS) + 1, 2, 1]]);
      const marker = await check.db
        .selectFrom('stat_cuts')
        .select('utc_offset_ms')
        .where('name', '=', 'view_days')
        .executeTakeFirstOrThrow();
      expect(marker.utc_offset_ms).toBe(8 * 3_600_000);
    } finally {
      await check.destroy();
    }
    const bad = await runCli(dir, ['migrate'], { REPORT_UTC_OFFSET: '+8:00' });
    expect(bad.code).not.toBe(0);
    expect(bad.out).toMatch(/REPORT_UTC_OFFSET/);
  }, 60_000);

  // docs/deployment.md (upgrades): migrating is a step of its own, not done by every command
  it('only migrate (and start, restore) migrate an existing database; other commands refuse one behind', async () => {
    const file = join(dir, 'library.db');
    const h = createDb({ dialect: 'sqlite', file });
    const names = Object.keys(migrations).sort();
    try {
      const down = await testMigrator(h.db).migrateTo(names[names.length - 2]!);
      expect(down.error).toBeUndefined();
    } finally {
      await h.destroy();
    }
    for (const args of [['optimize'], ['backup', join(dir, 'copy')], ['operator:create', 'ops']]) {
      const { code, out } = await runCli(dir, args, { OPERATOR_PASSWORD: 'long enough password' });
      expect([code, out], args.join(' ')).toEqual([
        1,
        expect.stringMatching(/schema is behind.*pnpm cli migrate/),
      ]);
    }
    expect(await migrate()).toEqual([`applied ${names[names.length - 1]}`, 'database schema migrated']);
    expect((await runCli(dir, ['optimize'])).code).toBe(0);
  }, 60_000);

  it('a backup of a database that is not there is refused, and creates none', async () => {
    const { code, out } = await runCli(dir, ['backup', join(dir, 'copy')]);
    expect([code, out]).toEqual([1, expect.stringMatching(/no database at .*library\.db/)]);
    expect(existsSync(join(dir, 'library.db'))).toBe(false);
  });
});
