import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startAdminServer } from '@readlib/admin-api';
import { loadConfig } from '@readlib/config';
import { createDb } from '@readlib/data';
import { buildApp } from '@readlib/reader-api';
import Fastify from 'fastify';

/**
 * One server process of a benchmark: `--kind reader|admin|bare --db <file|url> [--cold]`. Prints one
 * JSON line `{"url": ...}` on stdout when listening; stops on SIGTERM. Logging off, rate limit out of
 * the way.
 */
const { values } = parseArgs({
  options: {
    kind: { type: 'string', default: 'reader' },
    db: { type: 'string' },
    storage: { type: 'string' },
    // the reader starts as startReaderServer starts it, warm-up included; --cold leaves it out (bench:cold)
    cold: { type: 'boolean', default: false },
  },
});
export const BENCH_OPERATOR = { username: 'bench', password: 'bench-password-1' };

const env = {
  ...process.env,
  NODE_ENV: 'development' as const,
  DATABASE_URL: values.db ?? ':memory:',
  STORAGE_DIR: values.storage ?? mkdtempSync(join(tmpdir(), 'readlib-bench-store-')),
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '100000000',
  READER_PORT: '0',
  ADMIN_PORT: '0',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  ADMIN_USERNAME: BENCH_OPERATOR.username,
  ADMIN_PASSWORD: BENCH_OPERATOR.password,
  DEMO_CATALOGUE: 'false',
};

let close: () => Promise<void>;
let url: string;
if (values.kind === 'bare') {
  const app = Fastify({ logger: false });
  const payload = { error_code: 0, msg: 'ok', data: { hello: 'world', n: 1, list: [1, 2, 3] } };
  app.get('/bare', async () => payload);
  url = await app.listen({ host: '127.0.0.1', port: 0 });
  close = () => app.close();
} else {
  const config = loadConfig(env, { dotenv: false });
  const handle = createDb(config.database, {
    checkpoints: process.env.BENCH_CHECKPOINTS === 'inline' ? 'inline' : 'background',
    // as the services open it (PostgreSQL: answers kept until a commit is heard); BENCH_PG_VERSIONS_READ=1
    // reads the versions at every request instead, as before the commit notifications
    ...(process.env.BENCH_PG_VERSIONS_READ ? {} : { commitNotifications: {} }),
  });
  // BENCH_CHECKPOINT_LOG=1: every restart of the log (and any failure) on stderr, with this process's pid
  // and the time (ms, last five digits); =all: every passive pass too
  if (process.env.BENCH_CHECKPOINT_LOG)
    handle.checkpointer?.onEvent((e) => {
      if (e.type === 'restart' || e.type === 'error' || process.env.BENCH_CHECKPOINT_LOG === 'all')
        console.error(`[${process.pid}]`, Date.now() % 100000, JSON.stringify(e));
    });
  if (values.kind === 'reader') {
    const app = await buildApp(config, { db: handle.db, logger: false, warm: !values.cold });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    close = async () => {
      await app.close();
      await handle.destroy();
    };
  } else {
    const server = await startAdminServer(config, {
      db: handle.db,
      logger: false,
      cleanupIntervalMs: 3_600_000,
    });
    url = server.url;
    close = async () => {
      await server.close();
      await handle.destroy();
    };
  }
}
process.stdout.write(`${JSON.stringify({ url, pid: process.pid })}\n`);
process.once('SIGTERM', () => {
  void close().then(() => process.exit(0));
});
