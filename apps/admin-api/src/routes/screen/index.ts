import type { FastifyPluginAsync } from 'fastify';
import { requireOperator } from '../../plugins/auth.plugin.js';
import { screenRoute } from './screen.route.js';

/** Report screens, behind the token (decisions.md §5). */
export const screenRoutes: FastifyPluginAsync = async (app) => {
  requireOperator(app);
  await app.register(screenRoute);
};
