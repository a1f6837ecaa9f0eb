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
import { CONSOLE_DIST } from './paths';

export const OPERATOR = { username: 'operator', password: 'console journey password' };
export const JWT_SECRET = 'c'.repeat(48);

const sqlite = (await testDialects()).find((d) => d.name === 'sqlite')!;

export interface Services {
  readerUrl: string;
  adminUrl: string;
  /** the console's address, as `pnpm start` prints it */
  consoleUrl: string;
  config: AppConfig;
  h: DbHandle;
  close(): Promise<void>;
}

/** A free loopback port (taken from the system, then released for the service to bind). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Both real services on a fresh SQLite file and a temporary store, on ephemeral loopback ports, the
 * admin service serving the console's build. The reader's port is chosen first so that covers are
 * published under its real address (PUBLIC_BASE_URL), which the console's CSP admits.
 */
export async function startServices(env: Record<string, string> = {}): Promise<Services> {
  const h = await sqlite.create();
  const storage = await mkdtemp(join(tmpdir(), 'readlib-console-'));
  const readerPort = await freePort();
  const config = testConfig({
    STORAGE_DIR: storage,
    READER_PORT: String(readerPort),
    PUBLIC_BASE_URL: `http://127.0.0.1:${readerPort}`,
    JWT_SECRET,
    ADMIN_USERNAME: OPERATOR.username,
    ADMIN_PASSWORD: OPERATOR.password,
    // every test logs in again; the per-minute login limit has tests of its own in admin-api
    LOGIN_ATTEMPTS_PER_MINUTE: '1000',
    ...env,
  });
  await ensureFirstOperator(h.db, config);
  const apps: App[] = [];
  const reader = await buildReaderApp(config, { db: h.db, logger: false });
  apps.push(reader);
  const readerUrl = await reader.listen({ port: readerPort, host: '127.0.0.1' });
  const admin = await buildAdminApp(config, { db: h.db, logger: false, consoleDir: CONSOLE_DIST });
  apps.push(admin);
  const adminUrl = await admin.listen({ port: 0, host: '127.0.0.1' });
  return {
    readerUrl,
    adminUrl,
    consoleUrl: `${adminUrl}/console/`,
    config,
    h,
    async close() {
      for (const app of apps) await app.close();
      await h.destroy();
      await rm(storage, { recursive: true, force: true });
    },
  };
}
