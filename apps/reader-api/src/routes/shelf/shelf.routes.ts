import { addToShelf, planShelf, removeFromShelf } from '@readlib/catalog';
import type { FastifyPluginAsync } from 'fastify';
import { ack, type RouteOptions, serve } from '../route-options.js';
import { ShelfAnswers } from './shelf-answers.js';
import { parseShelfParam } from './shelf-param.js';

/** The user's shelf (spec §4.8; decisions.md §3). */
export const shelfRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  const shelves = new ShelfAnswers(ctx.keeps.versions);
  serve(app, 'getShelf', async (req, reply) =>
    shelves.send(reply, await planShelf(ctx, req.query.openId, req.query.fileName)),
  );
  serve(app, 'saveShelf', async (req) => {
    await addToShelf(ctx, parseShelfParam(req.query.shelf));
    return ack();
  });
  serve(app, 'removeShelf', async (req) => {
    await removeFromShelf(ctx, parseShelfParam(req.query.shelf));
    return ack();
  });
};
