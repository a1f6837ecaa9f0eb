import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp as buildAdminApp } from '@readlib/admin-api';
import { ensureFirstOperator } from '@readlib/catalog';
import { type AppConfig, testConfig } from '@readlib/config';
import type { DbHandle } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import type { App } from '@readlib/http';
import { buildApp as buildReaderApp } from '@readlib/reader-api';

export const OPERATOR = { username: 'ops', password: 'correct horse battery' };
export const JWT_SECRET = 'k'.repeat(48);

const sqlite = (await testDialects()).find((d) => d.name === 'sqlite')!;

export interface Services {
  readerUrl: string;
  adminUrl: string;
  config: AppConfig;
  h: DbHandle;
  close(): Promise<void>;
}

/**
 * Both real services on one fresh SQLite database and one temporary file store, listening on ephemeral
 * loopback ports, as in production (a book uploaded through the admin API is read through the reader API).
 */
export async function startServices(env: Record<string, string> = {}): Promise<Services> {
  const h = await sqlite.create();
  const storage = await mkdtemp(join(tmpdir(), 'readlib-sdk-'));
  const config = testConfig({
    STORAGE_DIR: storage,
    PUBLIC_BASE_URL: 'http://files.test',
    JWT_SECRET,
    ADMIN_USERNAME: OPERATOR.username,
    ADMIN_PASSWORD: OPERATOR.password,
    ...env,
  });
  await ensureFirstOperator(h.db, config);
  const apps: App[] = [];
  const listen = async (app: App) => {
    apps.push(app);
    return app.listen({ port: 0, host: '127.0.0.1' });
  };
  const readerUrl = await listen(await buildReaderApp(config, { db: h.db, logger: false }));
  const adminUrl = await listen(await buildAdminApp(config, { db: h.db, logger: false }));
  return {
    readerUrl,
    adminUrl,
    config,
    h,
    async close() {
      for (const app of apps) await app.close();
      await h.destroy();
      await rm(storage, { recursive: true, force: true });
    },
  };
}

/** A loopback port nothing listens on (taken from the OS, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/** An HS256 token signed with the services' secret that expired a minute ago. */
export function expiredToken(secret = JWT_SECRET): string {
  const now = Math.floor(Date.now() / 1000);
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(
    JSON.stringify({ sub: '1', username: OPERATOR.username, iat: now - 120, exp: now - 60 }),
  )}`;
  return `${head}.${b64url(createHmac('sha256', secret).update(head).digest())}`;
}
