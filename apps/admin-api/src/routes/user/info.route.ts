import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { operatorProfile } from '@readlib/catalog';
import { AdminUser, ref } from '@readlib/contracts';
import { ok, responses } from '../responses.js';

const schema = (operationId: string, errors: number[] = []) => ({
  operationId,
  tags: ['user'],
  summary: 'Profile of the operator holding the token',
  response: responses(ref(AdminUser), errors),
});

/** /user/info answers GET (what existing admin front ends call) and POST (spec §4.11), decisions.md §4. */
export const infoRoute: FastifyPluginAsyncTypebox = async (app) => {
  const handler = async (req: { user: { sub: string } }) =>
    ok(await operatorProfile(app.ctx.db, Number(req.user.sub)));
  app.get('/user/info', { schema: schema('getUserInfo') }, handler);
  // a POST may carry a body: too large (413) or of a type no parser takes (415)
  app.post('/user/info', { schema: schema('postUserInfo', [413, 415]) }, handler);
};
