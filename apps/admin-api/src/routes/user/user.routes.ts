import { authenticateOperator, dummyHash, logOperatorOut, operatorProfile } from '@readlib/catalog';
import type { FastifyPluginAsync } from 'fastify';
import { requireOperator } from '../../plugins/auth.plugin.js';
import { ack, ok, serve } from '../serve.js';

/** Operator routes: login is public, the rest sit behind the token in their own scope. */
export const userRoutes: FastifyPluginAsync = async (app) => {
  // computed now, so the first unknown-username attempt is not slower than the others
  await dummyHash();
  serve(app, 'login', async (req, reply) => {
    await app.loginLimiter.hit(req.ip, req.body.username);
    const op = await authenticateOperator(app.ctx.db, req.body.username, req.body.password);
    const claims = { sub: String(op.id), username: op.username, ver: op.token_version };
    return ok({ token: await reply.jwtSign(claims) });
  });
  await app.register(async (authed) => {
    requireOperator(authed);
    // /user/info answers GET (what existing admin front ends call) and POST (spec §4.11), decisions.md §4
    const info = async (req: { user: { sub: string } }) =>
      ok(await operatorProfile(app.ctx.db, Number(req.user.sub)));
    serve(authed, 'getUserInfo', info);
    serve(authed, 'postUserInfo', info);
    serve(authed, 'logout', async (req) => {
      await logOperatorOut(app.ctx.db, Number(req.user.sub), req.user.ver ?? 0);
      return ack();
    });
  });
};
