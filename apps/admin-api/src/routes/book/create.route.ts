import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createAdminBook } from '@readlib/catalog';
import { BookCreateBody, ref } from '@readlib/contracts';
import { ack, ackResponses, JSON_OR_FORM } from '../responses.js';

/** POST /book/create: a pending upload enters the catalogue, or a file-less record with a url. */
export const createRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/book/create',
    {
      schema: {
        operationId: 'createBook',
        tags: ['book'],
        summary: 'Add an uploaded e-book (by its fileName) or a record with a download url to the catalogue',
        consumes: JSON_OR_FORM,
        body: ref(BookCreateBody),
        // 404: the upload named expired (or never was)
        response: ackResponses([404, 409, 413, 415]),
      },
    },
    async (req) => {
      await createAdminBook(app.ctx.ingest, req.body);
      return ack();
    },
  );
};
