import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { AppConfig } from '@readlib/config';
import fp from 'fastify-plugin';

/**
 * Body parsers of decisions.md §4: URL-encoded forms beside JSON, and multipart for /book/upload with
 * the size limit enforced while streaming (before anything is buffered) and a single file.
 */
export const uploadPlugin = fp(
  async (app, opts: { config: AppConfig }) => {
    await app.register(formbody, { bodyLimit: 1024 * 1024 });
    await app.register(multipart, {
      limits: {
        fileSize: opts.config.upload.maxBytes,
        files: 1,
        fields: 20,
        parts: 21,
        fieldSize: 64 * 1024,
      },
    });
  },
  { name: 'admin-upload' },
);
