import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  categoryList,
  freeReadBatch,
  homeRows,
  hotBookBatch,
  hotSearchList,
  recommendBatch,
} from '@readlib/catalog';
import { BookSummary, CategoryItem, HomeData, HomeQuery, HotSearchItem, ref } from '@readlib/contracts';
import { Type } from '@sinclair/typebox';
import { ok, type RouteOptions, responses } from '../route-options.js';
import { HomeAnswers } from './home-answer.js';

const tags = ['home'];
const books = () => Type.Array(ref(BookSummary));

/** Home page and its "another batch" sections (spec §4.1, §4.2; decisions.md §3). */
export const homeRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { ctx, config }) => {
  const homes = new HomeAnswers(ctx.urls);
  app.get(
    '/book/home/v2',
    {
      schema: {
        operationId: 'getHome',
        tags,
        summary: 'Home page: shelf, recommendations, free reads, hot books, categories, banner',
        querystring: ref(HomeQuery),
        response: responses(ref(HomeData)),
      },
    },
    async (req, reply) => homes.send(reply, await homeRows(ctx, req.query.openId, config.banner)),
  );

  const batch = (path: string, operationId: string, summary: string, draw: typeof freeReadBatch) =>
    app.get(path, { schema: { operationId, tags, summary, response: responses(books()) } }, async () =>
      ok(await draw(ctx)),
    );
  batch(
    '/book/home/recommend/v2',
    'getRecommendBatch',
    'Another batch of 3 well-rated or popular books',
    recommendBatch,
  );
  batch(
    '/book/home/freeRead/v2',
    'getFreeReadBatch',
    'Another batch of 4 books drawn from the catalogue',
    freeReadBatch,
  );
  batch(
    '/book/home/hotBook/v2',
    'getHotBookBatch',
    'Another batch of 4 of the most viewed books',
    hotBookBatch,
  );

  app.get(
    '/book/hot-search',
    {
      schema: {
        operationId: 'getHotSearch',
        tags,
        summary: 'The 10 most viewed books of the last 30 days',
        response: responses(Type.Array(ref(HotSearchItem))),
      },
    },
    async () => ok(await hotSearchList(ctx)),
  );

  app.get(
    '/book/category/list/v2',
    {
      schema: {
        operationId: 'listCategories',
        tags,
        summary: 'Every non-empty category with its count and two covers',
        response: responses(Type.Array(ref(CategoryItem))),
      },
    },
    async (_req, reply) => homes.sendCategories(reply, await categoryList(ctx)),
  );
};
