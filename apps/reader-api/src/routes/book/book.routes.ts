import { bookContents, planBookDetail, rateBook } from '@readlib/catalog';
import type { FastifyPluginAsync } from 'fastify';
import { ack, ok, type RouteOptions, serve } from '../route-options.js';
import { DetailAnswers } from './detail-answers.js';

/** Book detail, table of contents and rating (spec §4.7, §4.9; decisions.md §3). */
export const bookRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  const details = new DetailAnswers(ctx.keeps, ctx.urls);
  // HEAD answers the same headers without counting a visit (the spec counts readers' views)
  serve(app, 'getBookDetail', async (req, reply) =>
    details.send(
      reply,
      await planBookDetail(ctx, req.query.fileName, req.query.openId, req.method !== 'HEAD'),
    ),
  );
  serve(app, 'getBookContents', async (req) => ok(await bookContents(ctx, req.query.fileName)));
  serve(app, 'saveRank', async (req) => {
    await rateBook(ctx, req.query);
    return ack();
  });
};
