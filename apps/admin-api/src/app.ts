import { OperatorTokens } from '@readlib/catalog';
import { type AppConfig, ConfigError } from '@readlib/config';
import { type Database, poolStats } from '@readlib/data';
import { FileStore } from '@readlib/epub';
import { type App, createBaseApp } from '@readlib/http';
import { type Kysely, sql } from 'kysely';
import { authPlugin } from './plugins/auth.plugin.js';
import { consolePlugin, defaultConsoleDir } from './plugins/console.plugin.js';
import { contextPlugin } from './plugins/context.plugin.js';
import { loginLimitPlugin } from './plugins/login-limit.plugin.js';
import { adminMetricsPlugin } from './plugins/metrics.plugin.js';
import { uploadPlugin } from './plugins/upload.plugin.js';
import { bookRoutes } from './routes/book/book.routes.js';
import { screenRoutes } from './routes/screen/screen.routes.js';
import { userRoutes } from './routes/user/user.routes.js';

export interface AdminDeps {
  /** owned by the caller, which closes it after the app */
  db: Kysely<Database>;
  /** the book file store (default: config.storageDir) */
  store?: FileStore;
  logger?: false;
  /** epoch milliseconds (tests move it: upload expiry, screen days, login windows) */
  now?: () => number;
  /** the operator console's build served at /console/ (default: apps/console/dist of this repository) */
  consoleDir?: string;
}

/** The administration API (spec §4.11, §4.12; decisions.md §4, §5) on the shared base app. */
export async function buildApp(config: AppConfig, deps: AdminDeps): Promise<App> {
  if (config.redisUrl && config.jwt.generatedSecret) {
    // each replica would sign with its own random secret: tokens would work on one replica only
    throw new ConfigError(
      'JWT_SECRET (at least 32 characters) is required when REDIS_URL is set: replicas must share one token secret',
    );
  }
  const app = await createBaseApp({
    config,
    family: 'admin',
    logger: deps.logger,
    openapi: {
      title: 'Reading library: administration API',
      version: '0.1.0',
      description:
        'For catalogue operators. Every response is {code, msg, data?}: 0 success, -1 failure, -2 missing or invalid token. ' +
        'Log in with `POST /user/login` and send `Authorization: Bearer <token>`.',
      bearer: true,
    },
    ready: async () => {
      await sql`select 1`.execute(deps.db);
      return true;
    },
    poolStats: () => poolStats(deps.db),
  });
  const now = deps.now ?? Date.now;
  const store = deps.store ?? new FileStore(config.storageDir);
  await app.register(adminMetricsPlugin);
  await app.register(contextPlugin, { config, db: deps.db, store, now });
  const tokens = new OperatorTokens(deps.db);
  app.decorate('operatorTokens', tokens);
  await app.register(authPlugin, { config, stillValid: (claims) => tokens.stillValid(claims) });
  await app.register(uploadPlugin, { config });
  await app.register(loginLimitPlugin, {
    perMinute: config.rateLimit.loginPerMinute,
    now,
    redis: app.redis,
    prefix: config.redisKeyPrefix,
  });
  await app.register(userRoutes);
  await app.register(bookRoutes, { uploadMaxBytes: config.upload.maxBytes });
  await app.register(screenRoutes);
  await app.register(consolePlugin, {
    dir: deps.consoleDir ?? defaultConsoleDir(),
    publicBaseUrl: config.publicBaseUrl,
  });
  return app;
}
