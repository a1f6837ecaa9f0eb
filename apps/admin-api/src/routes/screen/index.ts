import type { FastifyPluginAsync } from 'fastify';
import { screenRoute } from './screen.route.js';

/** Report screens, behind the token (decisions.md §5). */
export const screenRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.authenticate);
  await app.register(screenRoute);
};
