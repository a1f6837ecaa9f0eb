import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bookContents, planBookDetail, rateBook } from '@readlib/catalog';
import { BookContents, BookDetail, ContentsQuery, DetailQuery, RankSaveQuery, ref } from '@readlib/contracts';
import { ack, ackResponses, ok, type RouteOptions, responses } from '../route-options.js';
import { DetailAnswers } from './detail-answers.js';

const tags = ['book'];

/** Book detail, table of contents and rating (spec §4.7, §4.9; decisions.md §3). */
export const bookRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { ctx }) => {
  const details = new DetailAnswers();
  app.get(
    '/book/detail',
    {
      schema: {
        operationId: 'getBookDetail',
        tags,
        summary: 'Book detail with readers and ratings; records a view for a registered openId',
        querystring: ref(DetailQuery),
        response: responses(ref(BookDetail), [404]),
      },
    },
    // HEAD answers the same headers without counting a visit (the spec counts readers' views)
    async (req, reply) =>
      details.send(
        reply,
        await planBookDetail(ctx, req.query.fileName, req.query.openId, req.method !== 'HEAD'),
      ),
  );

  app.get(
    '/book/contents',
    {
      schema: {
        operationId: 'getBookContents',
        tags,
        summary: 'Book detail plus its flat and nested table of contents',
        querystring: ref(ContentsQuery),
        response: responses(ref(BookContents), [404]),
      },
    },
    async (req) => ok(await bookContents(ctx, req.query.fileName)),
  );

  app.get(
    '/book/rank/save',
    {
      exposeHeadRoute: false, // as shelf save
      schema: {
        operationId: 'saveRank',
        tags,
        summary: "Rate a book 1 to 5; replaces the user's previous rating",
        querystring: ref(RankSaveQuery),
        response: ackResponses([404]),
      },
    },
    async (req) => {
      await rateBook(ctx, req.query);
      return ack();
    },
  );
};
