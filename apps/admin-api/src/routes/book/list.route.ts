import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listAdminBooks } from '@readlib/catalog';
import { AdminBook, AdminPage, BookListQuery, ref } from '@readlib/contracts';
import { errorResponses } from '@readlib/http';
import { AUTHED } from '../responses.js';

/** GET /book/list: filters AND-ed, `sort` over a fixed list of fields, paged with a total (decisions.md §4). */
export const listRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/book/list',
    {
      schema: {
        operationId: 'listBooks',
        tags: ['book'],
        summary: 'Page of e-books; sort is "+field" or "-field"',
        querystring: ref(BookListQuery),
        response: { 200: AdminPage(ref(AdminBook)), ...errorResponses('admin', AUTHED) },
      },
      // an unencoded "+title" arrives as " title" (form encoding turns + into a space): read it as meant
      preValidation: async (req) => {
        const q = req.query as { sort?: unknown };
        if (typeof q.sort === 'string' && q.sort.startsWith(' ')) q.sort = `+${q.sort.trimStart()}`;
      },
    },
    async (req) => ({
      code: 0,
      msg: 'success',
      ...(await listAdminBooks(app.ctx.db, app.ctx.urls, req.query)),
    }),
  );
};
