import { daysSinceRegistration, register } from '@readlib/catalog';
import type { FastifyPluginAsync } from 'fastify';
import { ack, ok, type RouteOptions, serve } from '../route-options.js';

/** Registration and days since registration (spec §4.4, §4.10; decisions.md §3). */
export const userRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  serve(app, 'registerUser', async (req) => {
    await register(ctx, req.body);
    return ack();
  });
  serve(app, 'getUserDay', async (req) => ok(await daysSinceRegistration(ctx, req.query.openId)));
};
