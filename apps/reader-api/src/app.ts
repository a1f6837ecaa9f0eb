import type { SharedStore } from '@readlib/cache';
import { PublicUrls, type ReaderContext, ReaderKeeps } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';
import { type Database, poolStats, WriteBatcher, type Writes } from '@readlib/data';
import { type App, createBaseApp, failureFields } from '@readlib/http';
import { type Kysely, sql } from 'kysely';
import type { FetchLike } from './platforms/upstream.js';
import { bookRoutes } from './routes/book/book.routes.js';
import { searchRoutes } from './routes/book/search.routes.js';
import { homeRoutes } from './routes/home/home.routes.js';
import { opdsRoutes } from './routes/opds/opds.routes.js';
import { openIdRoutes } from './routes/openid/openid.routes.js';
import { resRoutes } from './routes/res/res.routes.js';
import type { RouteOptions } from './routes/route-options.js';
import { shelfRoutes } from './routes/shelf/shelf.routes.js';
import { userRoutes } from './routes/user/user.routes.js';
import { installWarmUp } from './warm-up.plugin.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** what this reader process keeps (the table of docs/architecture/caches.md) */
    readerKeeps: ReaderKeeps;
    /**
     * the reader's group commit: `drain()` resolves once every write handed over so far has committed,
     * the search lines written behind their answers included
     */
    readerWrites: Writes;
  }
}

export interface ReaderDeps {
  /** owned by the caller, which closes it after the app */
  db: Kysely<Database>;
  logger?: false;
  /** the login platforms' HTTP client (tests may wrap it) */
  fetch?: FetchLike;
  /** epoch milliseconds (tests move it to count days and age views) */
  now?: () => number;
  /** false: keep nothing, read everything on every request (tests comparing kept answers with fresh ones) */
  keep?: boolean;
  /** where replicas share kept lists; default: Redis with REDIS_URL, else none */
  store?: SharedStore;
  /** build the memos when the app gets ready, before it listens (startReaderServer does; tests choose) */
  warm?: boolean;
  /** longest the warm-up holds the start (default WARM_UP_MAX_MS) */
  warmUpMaxMs?: number;
}

/** The reader API (spec §4.1-§4.10) on the shared base app: envelopes, limits, OpenAPI, health. */
export async function buildApp(config: AppConfig, deps: ReaderDeps): Promise<App> {
  const app = await createBaseApp({
    config,
    family: 'reader',
    logger: deps.logger,
    openapi: {
      title: 'Reading library: reader API',
      version: '0.1.0',
      description:
        'For e-book mini-program clients. Every response is {error_code, msg, data?}; 0 means success.',
    },
    ready: async () => {
      await sql`select 1`.execute(deps.db);
      return true;
    },
    poolStats: () => poolStats(deps.db),
    filesPrefix: '/res/',
  });
  const writes = new WriteBatcher(deps.db);
  const keeps = new ReaderKeeps({
    ...((deps.store ?? app.sharedStore) ? { store: deps.store ?? app.sharedStore } : {}),
    ...(deps.keep === false ? { keep: false } : {}),
    onStoreError: (err) => app.log.debug({ err: err.message }, 'shared store failed: value computed'),
  });
  app.decorate('readerKeeps', keeps);
  app.decorate('readerWrites', writes);
  const ctx: ReaderContext = {
    db: deps.db,
    urls: new PublicUrls(config.publicBaseUrl),
    now: deps.now ?? Date.now,
    writes,
    keeps,
    reportError: (err, what) => app.log.warn(failureFields(err), what),
  };
  // requests await their writes, so this only matters for a write whose caller went away
  app.addHook('onClose', () => writes.drain());
  if (deps.warm) installWarmUp(app, ctx, config.banner, deps.warmUpMaxMs);
  const opts: RouteOptions = { ctx, config, fetch: deps.fetch ?? globalThis.fetch };
  for (const routes of [
    homeRoutes,
    searchRoutes,
    bookRoutes,
    shelfRoutes,
    userRoutes,
    openIdRoutes,
    opdsRoutes,
  ]) {
    await app.register(routes, opts);
  }
  await app.register(resRoutes, opts);
  return app;
}
