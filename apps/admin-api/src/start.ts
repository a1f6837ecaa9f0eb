import { cleanupExpiredUploads, ensureFirstOperator, type FirstOperatorResult } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';
import { FileStore } from '@readlib/epub';
import { type App, assertCanListen, listenOn } from '@readlib/http';
import { type AdminDeps, buildApp } from './app.js';

export interface StartOptions extends AdminDeps {
  /** how often expired uploads and orphan files are removed (default 10 minutes) */
  cleanupIntervalMs?: number;
}

export interface AdminServer {
  app: App;
  /** e.g. http://127.0.0.1:3001 */
  url: string;
  /** what the caller prints once: a generated first-operator password is never logged */
  firstOperator: FirstOperatorResult;
  close(): Promise<void>;
}

/** The warning of a start whose ADMIN_USERNAME/ADMIN_PASSWORD describe none of the operators there are. */
const IGNORED_VARIABLE: Record<NonNullable<FirstOperatorResult['ignored']>, string> = {
  'no such operator':
    'ADMIN_USERNAME names no operator and is ignored: it only makes the first operator; add one with `pnpm cli operator:create <username>`',
  'another password':
    "ADMIN_PASSWORD is not this operator's password and is ignored: it only makes the first operator; change the password with `pnpm cli operator:password <username>`",
};

/**
 * Ensures an operator exists, listens on config.host:config.adminPort and cleans uploads periodically.
 * A HOST or port it cannot listen on is refused first, before the operator and the cleanup's walk of
 * the store.
 */
export async function startAdminServer(config: AppConfig, deps: StartOptions): Promise<AdminServer> {
  await assertCanListen(config.host, config.adminPort, 'ADMIN_PORT');
  const firstOperator = await ensureFirstOperator(deps.db, config);
  const store = deps.store ?? new FileStore(config.storageDir);
  const app = await buildApp(config, { ...deps, store });
  // once, by the replica that made it; the password itself is never logged
  if (firstOperator.created) {
    app.log.info(
      {
        username: firstOperator.username,
        passwordFrom: firstOperator.generatedPassword ? 'generated' : 'ADMIN_PASSWORD',
      },
      'first operator created',
    );
  }
  // ADMIN_USERNAME/ADMIN_PASSWORD make the first operator only: a later change of them changes nothing
  if (firstOperator.ignored) {
    app.log.warn({ username: config.firstOperator?.username }, IGNORED_VARIABLE[firstOperator.ignored]);
  }
  if (config.jwt.generatedSecret) {
    app.log.warn('JWT_SECRET is not set: a random secret was generated, tokens end with this process');
  }
  let running = false;
  const cleanup = async () => {
    if (running) return;
    running = true;
    try {
      const { failures, ...report } = await cleanupExpiredUploads(deps.db, store, (deps.now ?? Date.now)());
      if (report.expiredUploads + report.orphans + report.temp > 0) app.log.info(report, 'upload cleanup');
      // each file once per run; the run went on past it
      for (const failure of failures) app.log.warn(failure, 'upload cleanup: cannot remove');
    } catch (err) {
      app.log.error({ err }, 'upload cleanup failed');
    } finally {
      running = false;
    }
  };
  await cleanup();
  const timer = setInterval(cleanup, deps.cleanupIntervalMs ?? 10 * 60_000);
  timer.unref();
  const url = await listenOn(app, config.host, config.adminPort, 'ADMIN_PORT');
  return {
    app,
    url,
    firstOperator,
    close: async () => {
      clearInterval(timer);
      await app.close();
    },
  };
}

/** The lines to print when the first operator was just created with a generated password. */
export function operatorNotice(result: FirstOperatorResult, url: string): string | undefined {
  if (!result.created || !result.generatedPassword) return undefined;
  return [
    'No operator existed: one was created for this development database.',
    `  admin API: ${url}`,
    `  username:  ${result.username}`,
    `  password:  ${result.generatedPassword}`,
    'It is shown only now; set ADMIN_USERNAME/ADMIN_PASSWORD or use `pnpm cli operator:create` instead.',
  ].join('\n');
}
