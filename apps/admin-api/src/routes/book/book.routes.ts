import { join } from 'node:path';
import {
  createAdminBook,
  dashboardTotals,
  deleteAdminBook,
  getAdminBook,
  listAdminBooks,
  listAdminCategories,
  sameAdminBooks,
  updateAdminBook,
  uploadEpub,
} from '@readlib/catalog';
import type { FastifyPluginAsync } from 'fastify';
import { requireOperator } from '../../plugins/auth.plugin.js';
import { ack, ok, serve } from '../serve.js';
import { withUploadedFile } from './upload-file.js';

/** E-book management (spec §4.11; decisions.md §4), all behind the token. */
export const bookRoutes: FastifyPluginAsync<{ uploadMaxBytes: number }> = async (app, { uploadMaxBytes }) => {
  requireOperator(app);
  const { ctx } = app;
  serve(app, 'getDashboard', async () => ok(await dashboardTotals(ctx.db)));
  serve(
    app,
    'listBooks',
    async (req) => ({ code: 0, msg: 'success', ...(await listAdminBooks(ctx.db, ctx.urls, req.query)) }),
    {
      // an unencoded "+title" arrives as " title" (form encoding turns + into a space): read it as meant
      preValidation: async (req) => {
        const q = req.query as { sort?: unknown };
        if (typeof q.sort === 'string' && q.sort.startsWith(' ')) q.sort = `+${q.sort.trimStart()}`;
      },
    },
  );
  // missing fileName 400, unknown 404, both code -1 (decisions.md §4)
  serve(app, 'getBook', async (req) => ok(await getAdminBook(ctx.db, ctx.urls, req.query.fileName)));
  // what the console asks before a create, which would be refused (409) for any of these
  serve(app, 'findSameBooks', async (req) => ok(await sameAdminBooks(ctx.db, ctx.urls, req.query)));
  serve(app, 'updateBook', async (req) => {
    await updateAdminBook(ctx.db, ctx.store, ctx.urls, req.body);
    return ack();
  });
  // the book and everything hanging off it in one transaction, then its files (a file that cannot be
  // removed is logged with the request)
  serve(app, 'deleteBook', async (req) => {
    await deleteAdminBook(ctx.db, ctx.store, req.query.fileName, req.log);
    return ack();
  });
  // 413 too large, 415 not an EPUB, 422 unsafe archive
  serve(app, 'uploadBook', async (req) =>
    ok(
      await withUploadedFile(req, join(ctx.store.root, '.tmp'), uploadMaxBytes, (path, name) =>
        uploadEpub(ctx.ingest, path, name),
      ),
    ),
  );
  // a pending upload enters the catalogue, or a file-less record with a url
  serve(app, 'createBook', async (req) => {
    await createAdminBook(ctx.ingest, req.body);
    return ack();
  });
  serve(app, 'listCategories', async () => ok(await listAdminCategories(ctx.db)));
};
