import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authenticateOperator, dummyHash } from '@readlib/catalog';
import { AdminEnvelope, LoginBody, LoginData, ref } from '@readlib/contracts';
import { JSON_OR_FORM, ok, publicErrors } from '../responses.js';

/** POST /user/login (spec §4.11, §5): the one admin route outside the token. */
export const loginRoute: FastifyPluginAsyncTypebox = async (app) => {
  // computed now, so the first unknown-username attempt is not slower than the others
  await dummyHash();
  app.post(
    '/user/login',
    {
      schema: {
        operationId: 'login',
        tags: ['user'],
        summary: 'Exchange username and password for a Bearer token (JSON or URL-encoded body)',
        security: [],
        consumes: JSON_OR_FORM,
        body: ref(LoginBody),
        response: { 200: AdminEnvelope(ref(LoginData)), ...publicErrors([401, 413, 415]) },
      },
    },
    async (req, reply) => {
      await app.loginLimiter.hit(req.ip, req.body.username);
      const op = await authenticateOperator(app.ctx.db, req.body.username, req.body.password);
      const claims = { sub: String(op.id), username: op.username, ver: op.token_version };
      return ok({ token: await reply.jwtSign(claims) });
    },
  );
};
