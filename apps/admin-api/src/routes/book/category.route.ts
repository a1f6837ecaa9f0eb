import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listAdminCategories } from '@readlib/catalog';
import { AdminCategory, ref } from '@readlib/contracts';
import { Type } from '@sinclair/typebox';
import { ok, responses } from '../responses.js';

/** GET /book/category: every category with its number of e-books (spec §2.12). */
export const categoryRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/book/category',
    {
      schema: {
        operationId: 'listCategories',
        tags: ['book'],
        summary: 'Categories as {label, value, num}',
        response: responses(Type.Array(ref(AdminCategory))),
      },
    },
    async () => ok(await listAdminCategories(app.ctx.db)),
  );
};
