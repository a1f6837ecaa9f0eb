import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle, isDatabaseUnavailable, QUERY_TIMEOUT_MARGIN_MS } from '../src/index.js';
import { CLOSE_GRACE_MS } from '../src/postgres/client-socket.js';
import { refusingPostgresUrl, silentPostgres, TcpRelay, testDialects } from '../src/testing/index.js';

/** The rejection of `work` (fails the test if it resolves). */
async function failureOf(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

// without PostgreSQL, testDialects() prints that its tests are skipped
const postgres = (await testDialects()).find((d) => d.name === 'postgres');

// docs/errors.md: a database that is locked or away answers 503 + Retry-After, not 500; the errors
// below are produced by the real drivers, not built by hand.
describe('isDatabaseUnavailable, SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'readlib-busy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a write while another connection holds the file: SQLITE_BUSY is unavailable', async () => {
    const file = join(dir, 'busy.db');
    const holder = new SQLite(file);
    holder.exec('create table t (x integer)');
    holder.exec('begin exclusive');
    holder.prepare('insert into t values (1)').run();
    const other = new SQLite(file, { timeout: 0 });
    try {
      const err = await failureOf(() => other.prepare('insert into t values (2)').run());
      expect((err as { code: string }).code).toMatch(/^SQLITE_BUSY/);
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      holder.exec('rollback');
      holder.close();
      other.close();
    }
  });

  it('a broken request (constraint, syntax) is not', async () => {
    const db = new SQLite(join(dir, 'plain.db'));
    db.exec('create table u (x integer primary key)');
    db.prepare('insert into u values (1)').run();
    try {
      expect(isDatabaseUnavailable(await failureOf(() => db.prepare('insert into u values (1)').run()))).toBe(
        false,
      );
      expect(isDatabaseUnavailable(await failureOf(() => db.prepare('selec 1')))).toBe(false);
    } finally {
      db.close();
    }
  });

  it('values that are not errors are not', () => {
    for (const v of [
      undefined,
      null,
      'SQLITE_BUSY',
      42,
      {},
      { code: 'SQLITE_CONSTRAINT' },
      new Error('boom'),
    ]) {
      expect(isDatabaseUnavailable(v)).toBe(false);
    }
  });
});

/**
 * A pool of the services' kind on a fresh PostgreSQL schema, the errors it reports, and a second client
 * to kill its connections with (pg_terminate_backend).
 */
async function withKillablePool(
  work: (pool: DbHandle, admin: pg.Client, lost: Error[]) => Promise<void>,
): Promise<void> {
  const h = await postgres!.create();
  const lost: Error[] = [];
  const { url, searchPath } = h.config as { url: string; searchPath: string };
  const pool = createDb(
    { dialect: 'postgres', url, searchPath },
    { onIdleConnectionError: (e) => lost.push(e) },
  );
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await work(pool, admin, lost);
  } finally {
    await admin.end();
    await pool.destroy();
    await h.destroy();
  }
}

describe('isDatabaseUnavailable, PostgreSQL driver', () => {
  it('nothing listening at the address (ECONNREFUSED, also through localhost) is unavailable', async () => {
    const refusing = await refusingPostgresUrl();
    for (const host of ['127.0.0.1', 'localhost']) {
      const client = new pg.Client({ connectionString: refusing.replace('127.0.0.1', host) });
      const err = await failureOf(() => client.connect());
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    }
  });

  it('a server that accepts and never answers: the connect timeout fails the query, unavailable', async () => {
    const silent = await silentPostgres();
    const h = createDb({ dialect: 'postgres', url: silent.url }, { connectTimeoutMs: 300 });
    try {
      const t = Date.now();
      const err = await failureOf(() => sql`select 1`.execute(h.db));
      expect(Date.now() - t).toBeLessThan(3000);
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    } finally {
      await h.destroy();
      await silent.close();
    }
  });

  it.runIf(postgres)('statement timeout and a full pool past the connect timeout: unavailable', async () => {
    const h = await postgres!.create();
    const { url, searchPath } = h.config as { url: string; searchPath: string };
    const db = createDb(
      { dialect: 'postgres', url, searchPath },
      { poolSize: 1, connectTimeoutMs: 200, statementTimeoutMs: 1000 },
    );
    try {
      const slow = await failureOf(() => sql`select pg_sleep(3)`.execute(db.db));
      expect((slow as { code: string }).code).toBe('57014');
      expect(isDatabaseUnavailable(slow)).toBe(true);
      // the one connection busy for 600 ms: a second query waits 200 ms for it, then gives up (the
      // margin is wide so a loaded machine's late timers do not let the second query through)
      const busy = sql`select pg_sleep(0.6)`.execute(db.db);
      const waiting = await failureOf(() => sql`select 1`.execute(db.db));
      expect(isDatabaseUnavailable(waiting), String(waiting)).toBe(true);
      await busy;
      expect((await sql<{ x: number }>`select 1 as x`.execute(db.db)).rows).toEqual([{ x: 1 }]);
    } finally {
      await db.destroy();
      await h.destroy();
    }
  });

  it.runIf(postgres)(
    'a lock_timeout, a terminated session: unavailable; a unique violation: not',
    async () => {
      const h = await postgres!.create();
      const url = (h.config as { url: string; searchPath: string }).url;
      const options = `-c search_path=${(h.config as { searchPath: string }).searchPath}`;
      const a = new pg.Client({ connectionString: url, options });
      const b = new pg.Client({ connectionString: url, options });
      // a terminated session also reports on the client's error event, as a pool's idle client would
      const background: unknown[] = [];
      b.on('error', (err) => background.push(err));
      await a.connect();
      await b.connect();
      try {
        await a.query("insert into counters (name, value) values ('probe', 0)");
        const dup = await failureOf(() => a.query("insert into counters (name, value) values ('probe', 0)"));
        expect(isDatabaseUnavailable(dup)).toBe(false);

        await a.query('begin');
        await a.query("update counters set value = 1 where name = 'probe'");
        await b.query("set lock_timeout = '50ms'");
        const locked = await failureOf(() => b.query("update counters set value = 2 where name = 'probe'"));
        expect((locked as { code: string }).code).toBe('55P03');
        expect(isDatabaseUnavailable(locked)).toBe(true);
        await a.query('rollback');

        const pid = (await b.query('select pg_backend_pid() as pid')).rows[0].pid;
        await a.query('select pg_terminate_backend($1)', [pid]);
        const gone = await failureOf(() => b.query('select 1'));
        expect(isDatabaseUnavailable(gone), String(gone)).toBe(true);
        for (const err of background) expect(isDatabaseUnavailable(err), String(err)).toBe(true);
      } finally {
        await a.end();
        await b.end().catch(() => {});
        await h.destroy();
      }
    },
  );

  it.runIf(postgres)(
    'an idle pooled connection killed by the server: reported, not thrown; the pool goes on',
    async () => {
      await withKillablePool(async (pool, admin, lost) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(pool.db);
        // the connection now idles in the pool; without a listener its death would end this process
        await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
        for (let i = 0; i < 500 && lost.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
        expect(lost).toHaveLength(1);
        expect(isDatabaseUnavailable(lost[0])).toBe(true);
        expect((await sql<{ x: number }>`select 1 as x`.execute(pool.db)).rows).toEqual([{ x: 1 }]);
      });
    },
  );

  // a server restart under load must not end the reader processes
  it.runIf(postgres)(
    'a pooled connection killed while its query runs: the query fails as unavailable, the process goes on',
    async () => {
      await withKillablePool(async (pool, admin, lost) => {
        const running = failureOf(() => sql`select pg_sleep(5), pg_backend_pid()`.execute(pool.db));
        let pid: number | undefined;
        for (let i = 0; i < 250 && pid === undefined; i++) {
          const r = await admin.query(
            "select pid from pg_stat_activity where query like 'select pg_sleep(5)%' and state = 'active'",
          );
          pid = r.rows[0]?.pid;
          if (pid === undefined) await new Promise((r) => setTimeout(r, 20));
        }
        expect(pid).toBeDefined();
        await admin.query('select pg_terminate_backend($1)', [pid]);
        expect(isDatabaseUnavailable(await running)).toBe(true);
        // the server's notice fails the query before the socket closes, so the next query may still
        // draw the dying client (and fail as unavailable, a 503); the pool has dropped it by the one after
        let answered: unknown;
        for (let i = 0; i < 3 && answered === undefined; i++) {
          answered = await sql<{ x: number }>`select 1 as x`
            .execute(pool.db)
            .then((r) => r.rows)
            .catch((err) => {
              expect(isDatabaseUnavailable(err), String(err)).toBe(true);
              return undefined;
            });
        }
        expect(answered).toEqual([{ x: 1 }]);
        for (const err of lost) expect(isDatabaseUnavailable(err), String(err)).toBe(true);
      });
    },
  );

  /** A fresh test database and a relay in front of its server, with the config that goes through it. */
  async function throughRelay() {
    const h = await postgres!.create();
    const { url, searchPath } = h.config as { url: string; searchPath: string };
    const target = new URL(url);
    const relay = new TcpRelay(target.hostname, Number(target.port || 5432));
    await relay.up();
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(relay.port);
    return { h, relay, config: { dialect: 'postgres' as const, url: through.toString(), searchPath } };
  }

  // a frozen server must not hold requests on open connections with no limit
  it.runIf(postgres)(
    'a server that stops answering on an open connection: the query fails past the statement timeout',
    async () => {
      const { h, relay, config } = await throughRelay();
      const db = createDb(config, { poolSize: 1, connectTimeoutMs: 300, statementTimeoutMs: 300 });
      try {
        expect((await sql<{ x: number }>`select 1 as x`.execute(db.db)).rows).toEqual([{ x: 1 }]);
        relay.freeze(true);
        const started = Date.now();
        const frozen = await failureOf(() => sql`select 1`.execute(db.db));
        expect(Date.now() - started).toBeLessThan(300 + QUERY_TIMEOUT_MARGIN_MS + 1000);
        expect(isDatabaseUnavailable(frozen), String(frozen)).toBe(true);
      } finally {
        relay.freeze(false);
        await relay.down();
        await db.destroy().catch(() => {});
        await h.destroy();
      }
    },
    15_000,
  );

  // SIGTERM while the server hangs: the service cut its requests at SHUTDOWN_TIMEOUT_MS, and closing the
  // database must not then wait for their queries until query_timeout
  it.runIf(postgres)(
    'destroy on a server that stopped answering: the queries still held are cut after a short grace',
    async () => {
      const { h, relay, config } = await throughRelay();
      const db = createDb(
        config,
        // the commit listener's connection goes through the relay too
        { poolSize: 2, statementTimeoutMs: 20_000, commitNotifications: { onLost: () => {} } },
      );
      try {
        expect((await sql<{ x: number }>`select 1 as x`.execute(db.db)).rows).toEqual([{ x: 1 }]);
        for (let i = 0; i < 500 && db.commitListener?.stamp() === undefined; i++)
          await new Promise((r) => setTimeout(r, 20));
        expect(db.commitListener?.stamp()).toBeDefined();
        relay.freeze(true);
        const held = failureOf(() => sql`select 1`.execute(db.db));
        await new Promise((r) => setTimeout(r, 100));
        const started = Date.now();
        await db.destroy();
        // before: the pool waited for the query's 22 s query_timeout
        expect(Date.now() - started).toBeLessThan(CLOSE_GRACE_MS + 1500);
        expect(String(await held)).toMatch(/terminated|closed|ended/i);
      } finally {
        relay.freeze(false);
        await relay.down();
        await h.destroy();
      }
    },
    30_000,
  );
});
