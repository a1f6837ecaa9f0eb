import type { FastifyPluginAsync } from 'fastify';
import { infoRoute } from './info.route.js';
import { loginRoute } from './login.route.js';

/** Operator routes: login is public, the rest sit behind the token in their own scope. */
export const userRoutes: FastifyPluginAsync = async (app) => {
  await app.register(loginRoute);
  await app.register(async (authed) => {
    // onRequest, not preHandler: refuse before any body is read or validated
    authed.addHook('onRequest', authed.authenticate);
    await authed.register(infoRoute);
  });
};
