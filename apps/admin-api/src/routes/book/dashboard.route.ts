import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dashboardTotals } from '@readlib/catalog';
import { DashboardTotals, ref } from '@readlib/contracts';
import { ok, responses } from '../responses.js';

/** GET /book/home (admin): totals of books, ratings, shelf entries and users (spec §4.11, §9.2). */
export const dashboardRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/book/home',
    {
      schema: {
        operationId: 'getDashboard',
        tags: ['book'],
        summary: 'Catalogue totals',
        response: responses(ref(DashboardTotals)),
      },
    },
    async () => ok(await dashboardTotals(app.ctx.db)),
  );
};
