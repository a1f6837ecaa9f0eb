import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getAdminBook } from '@readlib/catalog';
import { AdminBookDetail, OptionalFileNameQuery, ref } from '@readlib/contracts';
import { ok, responses } from '../responses.js';

/** GET /book/get: missing fileName 400, unknown 404, both code -1 (decisions.md §4). */
export const getRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/book/get',
    {
      schema: {
        operationId: 'getBook',
        tags: ['book'],
        summary: 'One e-book with its flat and nested table of contents',
        querystring: ref(OptionalFileNameQuery),
        response: responses(ref(AdminBookDetail), [404]),
      },
    },
    async (req) => ok(await getAdminBook(app.ctx.db, app.ctx.urls, req.query.fileName)),
  );
};
