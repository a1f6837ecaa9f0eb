import { loadConfig } from '@readlib/config';
import { MigrationError } from '@readlib/data';
import { describe, expect, it } from 'vitest';
import { firstStatements, servingDbOptions } from '../src/service-database.js';

const postgres = { dialect: 'postgres', url: 'postgres://readlib:s3cret@db.internal:5432/readlib' } as const;

describe('the first statements a process sends its database', () => {
  it('hands their result on', async () => {
    expect(await firstStatements(postgres, async () => ['2026-11-26T1600-search-keys'])).toEqual([
      '2026-11-26T1600-search-keys',
    ]);
  });

  it('says a failure to reach the database with where it was looked for, never the password', async () => {
    const refused = new Error('connect ECONNREFUSED 10.0.0.5:5432');
    const err = await firstStatements(postgres, () => Promise.reject(refused)).catch((e: Error) => e);
    expect(err.message).toBe(
      'cannot reach the database at postgres://readlib@db.internal:5432/readlib: connect ECONNREFUSED 10.0.0.5:5432',
    );
    expect(err.cause).toBe(refused);
  });

  it('throws a schema the build cannot serve as it is: it already says what to do', async () => {
    const behind = new MigrationError('the database schema is behind this build: run pnpm cli migrate');
    await expect(firstStatements(postgres, () => Promise.reject(behind))).rejects.toBe(behind);
  });
});

describe("a serving process's handle", () => {
  it('takes its pool, waits and prepared statements from the configuration, checkpoints off the loop', () => {
    const config = loadConfig({
      DATABASE_URL: postgres.url,
      DATABASE_POOL_SIZE: '7',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      DATABASE_STATEMENT_TIMEOUT_MS: '9000',
    });
    expect(servingDbOptions(config)).toEqual({
      poolSize: 7,
      checkpoints: 'background',
      connectTimeoutMs: 1500,
      statementTimeoutMs: 9000,
      preparedStatements: config.databasePreparedStatements,
    });
  });
});
