import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { addToShelf, planShelf, removeFromShelf } from '@readlib/catalog';
import { ref, ShelfEntry, ShelfGetQuery, ShelfMutateQuery } from '@readlib/contracts';
import { Type } from '@sinclair/typebox';
import { ack, ackResponses, type RouteOptions, responses } from '../route-options.js';
import { ShelfAnswers } from './shelf-answers.js';
import { parseShelfParam } from './shelf-param.js';

const tags = ['shelf'];

/** The user's shelf (spec §4.8; decisions.md §3). */
export const shelfRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { ctx }) => {
  const shelves = new ShelfAnswers();
  app.get(
    '/book/shelf/get',
    {
      schema: {
        operationId: 'getShelf',
        tags,
        summary: "The user's shelf, newest first; with fileName, the shelf status of that book",
        querystring: ref(ShelfGetQuery),
        response: responses(Type.Array(ref(ShelfEntry)), [404]),
      },
    },
    async (req, reply) => shelves.send(reply, await planShelf(ctx, req.query.openId, req.query.fileName)),
  );

  app.get(
    '/book/shelf/save',
    {
      // a write behind GET (the spec's choice): HEAD, which prefetchers and link checkers send on their
      // own, must not save anything, so it gets no route (404)
      exposeHeadRoute: false,
      schema: {
        operationId: 'saveShelf',
        tags,
        summary: 'Add a book to the shelf (idempotent)',
        querystring: ref(ShelfMutateQuery),
        response: ackResponses([404]),
      },
    },
    async (req) => {
      await addToShelf(ctx, parseShelfParam(req.query.shelf));
      return ack();
    },
  );

  app.get(
    '/book/shelf/remove',
    {
      exposeHeadRoute: false, // as save
      schema: {
        operationId: 'removeShelf',
        tags,
        summary: 'Remove a book from the shelf (absent entries succeed)',
        querystring: ref(ShelfMutateQuery),
        response: ackResponses([404]),
      },
    },
    async (req) => {
      await removeFromShelf(ctx, parseShelfParam(req.query.shelf));
      return ack();
    },
  );
};
