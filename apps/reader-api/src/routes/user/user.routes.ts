import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { daysSinceRegistration, register } from '@readlib/catalog';
import { RegisterBody, ref, UserDayData, UserDayQuery } from '@readlib/contracts';
import { ack, ackResponses, ok, type RouteOptions, responses } from '../route-options.js';

const tags = ['user'];

/** Registration and days since registration (spec §4.4, §4.10; decisions.md §3). */
export const userRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { ctx }) => {
  app.post(
    '/user/register',
    {
      schema: {
        operationId: 'registerUser',
        tags,
        summary: 'Register or update a reader profile (upsert keyed by openId)',
        body: ref(RegisterBody),
        response: ackResponses([413, 415]),
      },
    },
    async (req) => {
      await register(ctx, req.body);
      return ack();
    },
  );

  app.get(
    '/user/day',
    {
      schema: {
        operationId: 'getUserDay',
        tags,
        summary: 'Whole days since registration, the registration day being day 1',
        querystring: ref(UserDayQuery),
        response: responses(ref(UserDayData), [404]),
      },
    },
    async (req) => ok(await daysSinceRegistration(ctx, req.query.openId)),
  );
};
