import {
  categoryList,
  freeReadBatch,
  homeRows,
  hotBookBatch,
  hotSearchList,
  recommendBatch,
} from '@readlib/catalog';
import type { FastifyPluginAsync } from 'fastify';
import { ok, type RouteOptions, serve } from '../route-options.js';
import { HomeAnswers } from './home-answer.js';

/** Home page and its "another batch" sections (spec §4.1, §4.2; decisions.md §3). */
export const homeRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx, config }) => {
  const homes = new HomeAnswers(ctx.urls, ctx.keeps.versions);
  serve(app, 'getHome', async (req, reply) =>
    homes.send(reply, await homeRows(ctx, req.query.openId, config.banner)),
  );
  serve(app, 'getRecommendBatch', async () => ok(await recommendBatch(ctx)));
  serve(app, 'getFreeReadBatch', async () => ok(await freeReadBatch(ctx)));
  serve(app, 'getHotBookBatch', async () => ok(await hotBookBatch(ctx)));
  serve(app, 'getHotSearch', async () => ok(await hotSearchList(ctx)));
  serve(app, 'listCategories', async (_req, reply) => homes.sendCategories(reply, await categoryList(ctx)));
};
