import { PublicUrls, type UploadDeps } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';
import type { Database } from '@readlib/data';
import type { EpubLimits, FileStore } from '@readlib/epub';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';

/** What route handlers hand to the catalog services: one object, built once per app. */
export interface AdminContext {
  config: AppConfig;
  db: Kysely<Database>;
  store: FileStore;
  urls: PublicUrls;
  now: () => number;
  /** dependencies of upload, create and import */
  ingest: UploadDeps;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AdminContext;
  }
}

/** The EPUB limits of decisions.md §4, from configuration. */
export function epubLimits(config: AppConfig): Partial<EpubLimits> {
  return {
    maxArchiveBytes: config.upload.maxBytes,
    maxEntries: config.upload.maxEntries,
    maxTotalUncompressed: config.upload.maxUncompressedBytes,
    maxEntryUncompressed: Math.min(config.upload.maxUncompressedBytes, 128 * 1024 * 1024),
  };
}

export const contextPlugin = fp(
  async (app, opts: { config: AppConfig; db: Kysely<Database>; store: FileStore; now: () => number }) => {
    const urls = new PublicUrls(opts.config.publicBaseUrl);
    const ingest: UploadDeps = {
      db: opts.db,
      store: opts.store,
      urls,
      limits: epubLimits(opts.config),
      graceMinutes: opts.config.upload.graceMinutes,
      now: opts.now,
    };
    app.decorate('ctx', { config: opts.config, db: opts.db, store: opts.store, urls, now: opts.now, ingest });
  },
  { name: 'admin-context' },
);
