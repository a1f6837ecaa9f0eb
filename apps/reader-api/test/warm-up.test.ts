import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SharedStore } from '@readlib/cache';
import { testConfig } from '@readlib/config';
import type { App } from '@readlib/http';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, startReaderServer } from '../src/index.js';
import { dialects, type Harness, harness, seedBooks } from './helpers.js';

// Issue: performance — the reader builds its memos when it gets ready, before it listens, so the first
// readers of a new process are answered as fast as later ones; a warm-up that fails or hangs delays
// nothing but itself.
describe.each(dialects)('the start-up warm-up on $name', (dialect) => {
  let t: Harness | undefined;
  const apps: App[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await t?.close();
    t = undefined;
  });

  it('runs when the app gets ready and reports what it built; tests and tools may leave it out', async () => {
    t = await harness(dialect, {}, { warm: true });
    await seedBooks(t, 3);
    await t.app.ready();
    expect(t.app.warmUp).toMatchObject({ books: 3, categoriesIndexed: true, authors: 1, publishers: 1 });

    const plain = await buildApp(t.config, { db: t.h.db, logger: false });
    apps.push(plain);
    await plain.ready();
    expect(plain.warmUp).toBeUndefined();
  });

  it('startReaderServer warms up before it listens', async () => {
    t = await harness(dialect);
    await seedBooks(t, 2);
    const app = await startReaderServer(testConfig({ READER_PORT: '0', STORAGE_DIR: t.storage }), {
      db: t.h.db,
      logger: false,
    });
    apps.push(app);
    expect(app.server.listening).toBe(true);
    expect(app.warmUp?.books).toBe(2);
  });

  it('a database that is down at start: the app starts anyway and /readyz says so', async () => {
    const h = await dialect.create();
    const storage = mkdtempSync(join(tmpdir(), 'readlib-warm-'));
    await h.destroy();
    const app = await buildApp(testConfig({ STORAGE_DIR: storage }), { db: h.db, logger: false, warm: true });
    apps.push(app);
    try {
      await app.ready();
      expect(app.warmUp).toBeUndefined();
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/readyz' })).json()).toMatchObject({ database: false });
    } finally {
      rmSync(storage, { recursive: true, force: true });
    }
  });

  it('a port taken or a HOST not of this machine is refused before the warm-up, not after it', async () => {
    t = await harness(dialect);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    // a warm-up of 20 s (a shared store that stopped answering): a refusal after it would take that long
    const stuck: SharedStore = { get: () => new Promise(() => {}), set: async () => {} };
    const deps = { db: t.h.db, logger: false as const, store: stuck, warmUpMaxMs: 20_000 };
    const refusal = async (env: Record<string, string>) => {
      const started = performance.now();
      const message = await startReaderServer(testConfig({ STORAGE_DIR: t!.storage, ...env }), deps).then(
        (app) => {
          apps.push(app);
          return 'listened';
        },
        (err: Error) => err.message,
      );
      return { message, ms: performance.now() - started };
    };
    try {
      const busy = await refusal({ READER_PORT: String(port) });
      expect(busy.message).toMatch(
        new RegExp(`^listen EADDRINUSE: .*: another process listens on port ${port}: .* READER_PORT$`),
      );
      expect(busy.ms).toBeLessThan(10_000);
      // TEST-NET-1 (RFC 5737): an address no machine of a test run holds
      const foreign = await refusal({ HOST: '192.0.2.1', READER_PORT: '0' });
      expect(foreign.message).toMatch(
        /^listen EADDRNOTAVAIL: .*: HOST 192\.0\.2\.1 is not an address of this machine/,
      );
      expect(foreign.ms).toBeLessThan(10_000);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('a warm-up that hangs holds the start no longer than its bound', async () => {
    t = await harness(dialect);
    // a shared store that stopped answering (Redis behind a dropped network): every read through it waits
    const stuck: SharedStore = { get: () => new Promise(() => {}), set: async () => {} };
    const app = await buildApp(t.config, {
      db: t.h.db,
      logger: false,
      store: stuck,
      warm: true,
      warmUpMaxMs: 50,
    });
    apps.push(app);
    const started = performance.now();
    await app.ready();
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(app.warmUp).toBeUndefined();
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});
