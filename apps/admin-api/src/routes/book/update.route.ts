import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { updateAdminBook } from '@readlib/catalog';
import { BookUpdateBody, ref } from '@readlib/contracts';
import { ack, ackResponses, JSON_OR_FORM } from '../responses.js';

/** POST /book/update: changes only the fields sent; category by id or by (new) name (decisions.md §4). */
export const updateRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/book/update',
    {
      schema: {
        operationId: 'updateBook',
        tags: ['book'],
        summary: 'Change the fields sent (JSON or URL-encoded body)',
        consumes: JSON_OR_FORM,
        body: ref(BookUpdateBody),
        response: ackResponses([404, 413, 415]),
      },
    },
    async (req) => {
      await updateAdminBook(app.ctx.db, app.ctx.store, app.ctx.urls, req.body);
      return ack();
    },
  );
};
