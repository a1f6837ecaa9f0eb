import type { FastifyPluginAsync } from 'fastify';
import { requireOperator } from '../../plugins/auth.plugin.js';
import { categoryRoute } from './category.route.js';
import { createRoute } from './create.route.js';
import { dashboardRoute } from './dashboard.route.js';
import { deleteRoute } from './delete.route.js';
import { getRoute } from './get.route.js';
import { listRoute } from './list.route.js';
import { updateRoute } from './update.route.js';
import { uploadRoute } from './upload.route.js';

/** E-book management (spec §4.11), all behind the token. */
export const bookRoutes: FastifyPluginAsync = async (app) => {
  requireOperator(app);
  for (const route of [
    dashboardRoute,
    listRoute,
    getRoute,
    updateRoute,
    deleteRoute,
    uploadRoute,
    createRoute,
    categoryRoute,
  ]) {
    await app.register(route);
  }
};
