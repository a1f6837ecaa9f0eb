import type { FastifyPluginAsync } from 'fastify';
import { requireOperator } from '../../plugins/auth.plugin.js';
import { infoRoute } from './info.route.js';
import { loginRoute } from './login.route.js';

/** Operator routes: login is public, the rest sit behind the token in their own scope. */
export const userRoutes: FastifyPluginAsync = async (app) => {
  await app.register(loginRoute);
  await app.register(async (authed) => {
    requireOperator(authed);
    await authed.register(infoRoute);
  });
};
