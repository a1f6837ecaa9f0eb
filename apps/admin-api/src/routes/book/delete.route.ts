import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deleteAdminBook } from '@readlib/catalog';
import { FileNameQuery, ref } from '@readlib/contracts';
import { ack, ackResponses } from '../responses.js';

/** GET /book/delete: the book and everything hanging off it in one transaction, then its files. */
export const deleteRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/book/delete',
    {
      // the spec puts a delete on GET: HEAD (link checkers, prefetchers with the console's token) gets 404
      exposeHeadRoute: false,
      schema: {
        operationId: 'deleteBook',
        tags: ['book'],
        summary: 'Delete an e-book with its contents, shelf entries, ratings, views and files',
        querystring: ref(FileNameQuery),
        response: ackResponses([404]),
      },
    },
    async (req) => {
      await deleteAdminBook(app.ctx.db, app.ctx.store, req.query.fileName);
      return ack();
    },
  );
};
