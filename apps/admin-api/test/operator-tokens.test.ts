import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changeOperatorPassword, ensureFirstOperator } from '@readlib/catalog';
import { testConfig } from '@readlib/config';
import { createDb, type DbConfig, type DbHandle, operatorsStamp, upsertUser } from '@readlib/data';
import { sentToPostgres, statementsOf, testDialects } from '@readlib/data/testing';
import { FileStore } from '@readlib/epub';
import type { App } from '@readlib/http';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/index.js';
import { type Harness, harness, JWT_SECRET, login, OPERATOR } from './helpers.js';

const dialects = await testDialects();
const postgres = dialects.find((d) => d.name === 'postgres');

/** as long as a notification may take to arrive here */
const HEARD = { timeout: 15_000, interval: 10 };

// Every administration request checks that its token's operator still has the token version it was
// issued with (a password reset refuses the tokens before it). On PostgreSQL, a service listening for
// commits keeps each operator's version until a commit changing an operator is heard, so the check
// sends nothing. `other` stands for another process: the CLI resetting a password, a reader's writes.
describe.skipIf(!postgres)("operators' token versions kept on PostgreSQL", () => {
  let other: DbHandle & { config: DbConfig };
  let service: DbHandle;
  let app: App;
  let root: string;
  beforeEach(async () => {
    other = await postgres!.create();
    root = await mkdtemp(join(tmpdir(), 'readlib-admin-'));
    const config = testConfig({
      STORAGE_DIR: root,
      JWT_SECRET,
      ADMIN_USERNAME: OPERATOR.username,
      ADMIN_PASSWORD: OPERATOR.password,
    });
    await ensureFirstOperator(other.db, config);
    service = createDb(other.config, { commitNotifications: {} });
    await service.commitListener!.ready;
    app = await buildApp(config, { db: service.db, store: new FileStore(root), logger: false });
  });
  afterEach(async () => {
    await app?.close();
    await service?.destroy();
    await other?.destroy();
    await rm(root, { recursive: true, force: true });
  });

  const info = (token: string) =>
    app.inject({ method: 'GET', url: '/user/info', headers: { authorization: `Bearer ${token}` } });
  const tokenChecks = async (work: () => Promise<unknown>) =>
    (await sentToPostgres(work)).filter((s) => s.text.includes('token_version')).length;

  it("checks a kept token version without a statement, and refuses the token once another process's reset is heard", async () => {
    const token = await login(app);
    expect((await info(token)).statusCode).toBe(200);
    expect(
      await tokenChecks(async () => {
        for (let i = 0; i < 3; i++) expect((await info(token)).statusCode).toBe(200);
      }),
    ).toBe(0);
    // the commits readers cause are heard and do not make it read again
    const stamp = operatorsStamp(service.db);
    await upsertUser(other.db, { openId: 'r1', platform: 'wx' });
    await vi.waitFor(async () => {
      expect(await tokenChecks(() => info(token))).toBe(0);
      expect(operatorsStamp(service.db)).toBe(stamp);
    }, HEARD);
    // the CLI resets the password: refused as soon as its commit is heard, and read once more then
    await changeOperatorPassword(other.db, OPERATOR.username, 'a brand new password');
    await vi.waitFor(async () => expect((await info(token)).json()).toMatchObject({ code: -2 }), HEARD);
    const fresh = await login(app, { username: OPERATOR.username, password: 'a brand new password' });
    expect((await info(fresh)).statusCode).toBe(200);
    expect((await info(token)).statusCode).toBe(401);
  });

  it('reads the version at every request while it does not listen, and keeps it again once it does', async () => {
    const token = await login(app);
    const pid = service.commitListener!.backendPid!;
    await sql`select pg_terminate_backend(${pid})`.execute(other.db);
    await vi.waitFor(() => expect(operatorsStamp(service.db)).toBeUndefined(), HEARD);
    // a reset while nobody listens is not missed
    expect(await tokenChecks(() => info(token))).toBe(1);
    await changeOperatorPassword(other.db, OPERATOR.username, 'a brand new password');
    let status = 0;
    expect(
      await tokenChecks(async () => {
        status = (await info(token)).statusCode;
      }),
    ).toBe(1);
    expect(status).toBe(401);
    await vi.waitFor(() => expect(operatorsStamp(service.db)).toBeDefined(), HEARD);
    expect((await info(token)).statusCode).toBe(401);
    const fresh = await login(app, { username: OPERATOR.username, password: 'a brand new password' });
    expect((await info(fresh)).statusCode).toBe(200);
    expect(await tokenChecks(() => info(fresh))).toBe(0);
  });
});

describe.each(dialects)('the token check without a commit listener on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  it('reads the token version at every request, so a reset refuses the tokens at once', async () => {
    const info = () => t.app.inject({ method: 'GET', url: '/user/info', headers: t.auth });
    expect(operatorsStamp(t.h.db)).toBeUndefined();
    expect((await info()).statusCode).toBe(200);
    const statements = await statementsOf(t.h.db, info);
    expect(statements.filter((text) => text.includes('token_version'))).toHaveLength(1);
    await changeOperatorPassword(t.h.db, OPERATOR.username, 'a brand new password');
    expect((await info()).statusCode).toBe(401);
  });
});

describe('docs/architecture/caches.md: what the administration keeps', () => {
  it("lists the admin process's keeps with the versions they depend on", async () => {
    const h = await dialects[0]!.create();
    const root = await mkdtemp(join(tmpdir(), 'readlib-admin-'));
    try {
      const app = await buildApp(testConfig({ STORAGE_DIR: root, JWT_SECRET }), {
        db: h.db,
        store: new FileStore(root),
        logger: false,
      });
      const doc = await readFile(new URL('../../../docs/architecture/caches.md', import.meta.url), 'utf8');
      const section = doc.slice(doc.indexOf('## What the administration keeps'));
      const table = section.slice(section.indexOf('| what is kept'));
      const documented = table
        .slice(0, table.indexOf('\n\n'))
        .split('\n')
        .filter((l) => l.startsWith('| ') && !l.startsWith('| what'))
        .map((line) =>
          line
            .split('|')
            .slice(1, 4)
            .map((c) => c.trim()),
        );
      expect(documented).toEqual(
        app.operatorTokens.versions.keeps.map((k) => [k.name, k.key, k.dependsOn.join(', ')]),
      );
      await app.close();
    } finally {
      await h.destroy();
      await rm(root, { recursive: true, force: true });
    }
  });
});
