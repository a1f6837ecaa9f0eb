import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertSchemaCurrent,
  type DbHandle,
  MigrationError,
  migrateToLatest,
  schemaState,
} from '../src/index.js';
import { testDialects } from '../src/testing/index.js';

const dialects = await testDialects();

describe.each(dialects)('migrations and schema checks on $name', (dialect) => {
  let h: DbHandle & { config: { dialect: string; searchPath?: string } };
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());
  const schema = () => (h.config.dialect === 'postgres' ? h.config.searchPath?.split(',')[0] : undefined);

  it('is current after migrateToLatest, and migrating again is a no-op', async () => {
    expect((await schemaState(h.db, schema())).state).toBe('current');
    await expect(migrateToLatest(h.db, schema())).resolves.toEqual([]);
    await expect(assertSchemaCurrent(h.db, schema())).resolves.toBeUndefined();
  });

  it('refuses a schema migrated by a newer build (ahead) and one not yet migrated (behind)', async () => {
    await h.db
      .insertInto('kysely_migration' as never)
      .values({ name: '2999-01-01T0000-future', timestamp: new Date().toISOString() } as never)
      .execute();
    expect((await schemaState(h.db, schema())).state).toBe('ahead');
    await expect(assertSchemaCurrent(h.db, schema())).rejects.toThrow(MigrationError);
    await expect(assertSchemaCurrent(h.db, schema())).rejects.toThrow(/newer version/);
    await h.db.deleteFrom('kysely_migration' as never).execute();
    expect((await schemaState(h.db, schema())).state).toBe('empty');
    await expect(assertSchemaCurrent(h.db, schema())).rejects.toThrow(/pnpm cli migrate/);
  });
});
