import { type ReaderContext, type WarmUpReport, warmReader } from '@readlib/catalog';
import type { Banner } from '@readlib/contracts';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** what the start-up warm-up built; undefined before it ends, when it failed or ran out of time */
    warmUp: WarmUpReport | undefined;
  }
}

/** Longest a start waits for the warm-up: past it the process listens and the warm-up goes on. */
export const WARM_UP_MAX_MS = 30_000;

/**
 * The reader warms its memos when it gets ready, so before it listens (`listen` readies the app
 * first): readers of a process just started or restarted are answered as fast as later ones. A
 * warm-up that fails (the database is down) or is slow delays nothing but itself: the first requests
 * then build what it did not, as without one, and /readyz says whether the database answers.
 */
export function installWarmUp(
  app: FastifyInstance,
  ctx: ReaderContext,
  banner: Banner,
  maxMs = WARM_UP_MAX_MS,
): void {
  app.decorate('warmUp', undefined);
  app.addHook('onReady', async () => {
    // settles either way, so a warm-up that ends after the start cannot reject unheard
    const warming = warmReader(ctx, banner).then(
      (report) => {
        app.warmUp = report;
        app.log.info(report, 'warmed up');
      },
      (err) => app.log.warn({ err }, 'warm-up failed: the first requests build what it did not'),
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), maxMs);
    });
    if ((await Promise.race([warming, late])) === 'late')
      app.log.warn({ maxMs }, 'warm-up still running: listening without waiting for it');
    clearTimeout(timer);
  });
}
