import { cityScatter, provinceMap, screenData, wordCloud } from '@readlib/catalog';
import { SCREEN_DAYS_DEFAULT } from '@readlib/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { requireOperator } from '../../plugins/auth.plugin.js';
import { ok, serve } from '../serve.js';

/** Report and screen endpoints (decisions.md §5): computed from our own data over a `days` window, behind the token. */
export const screenRoutes: FastifyPluginAsync = async (app) => {
  requireOperator(app);
  const days = (q: { days?: number }) => q.days ?? SCREEN_DAYS_DEFAULT;
  const { db, now, config } = app.ctx;
  const offset = config.reportUtcOffsetMs;
  serve(app, 'getScreenData', async (req) => ok(await screenData(db, days(req.query), now(), offset)));
  serve(app, 'getWordCloud', async (req) => ok(await wordCloud(db, days(req.query), now(), offset)));
  serve(app, 'getScreenMap', async (req) => ok(await provinceMap(db, days(req.query), now(), offset)));
  serve(app, 'getScreenScatter', async (req) => ok(await cityScatter(db, days(req.query), now(), offset)));
};
