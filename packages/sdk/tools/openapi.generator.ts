import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp as buildAdminApp } from '@readlib/admin-api';
import { testConfig } from '@readlib/config';
import { createDb } from '@readlib/data';
import type { App } from '@readlib/http';
import { buildApp as buildReaderApp } from '@readlib/reader-api';

export type ServiceName = 'reader-api' | 'admin-api';

/** Where the committed documents live. */
export const openApiPaths: Record<ServiceName, string> = {
  'reader-api': fileURLToPath(new URL('../openapi/reader-api.json', import.meta.url)),
  'admin-api': fileURLToPath(new URL('../openapi/admin-api.json', import.meta.url)),
};

export const REGENERATE_COMMAND = 'pnpm openapi (or: pnpm --filter @readlib/sdk openapi)';

/** Objects with their keys sorted, recursively; arrays keep their order (it carries meaning). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}

/** The text written to disk: sorted keys, two-space indent, final newline; no timestamps anywhere. */
export const serializeDocument = (doc: unknown): string => `${JSON.stringify(sortKeys(doc), null, 2)}\n`;

async function documentOf(build: () => Promise<App>): Promise<unknown> {
  const app = await build();
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
  }
}

/**
 * Both services' OpenAPI 3.1 documents, as the running services serve them at /openapi.json: each app
 * is built on a throwaway in-memory SQLite database (never queried) and a temporary, empty file store.
 */
export async function generateOpenApiDocuments(): Promise<Record<ServiceName, string>> {
  const storage = await mkdtemp(join(tmpdir(), 'readlib-openapi-'));
  const config = testConfig({ STORAGE_DIR: storage, JWT_SECRET: 'openapi-'.repeat(6) });
  const handle = createDb({ dialect: 'sqlite', file: ':memory:' });
  try {
    const reader = await documentOf(() => buildReaderApp(config, { db: handle.db, logger: false }));
    const admin = await documentOf(() => buildAdminApp(config, { db: handle.db, logger: false }));
    return { 'reader-api': serializeDocument(reader), 'admin-api': serializeDocument(admin) };
  } finally {
    await handle.destroy();
    await rm(storage, { recursive: true, force: true });
  }
}
