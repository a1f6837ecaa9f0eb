import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type OpenApiDocument, renderApiIndex, renderApiPage } from './api-docs.renderer.js';

export const API_DOCS_COMMAND = 'pnpm docs:api';

/** docs/api of the repository. */
export const apiDocsDir = fileURLToPath(new URL('../../../docs/api/', import.meta.url));

const services = ['reader-api', 'admin-api'] as const;

/** Every page of docs/api by file name, made from the committed OpenAPI documents. */
export async function renderApiDocs(): Promise<Record<string, string>> {
  const pages = await Promise.all(
    services.map(async (name) => {
      const source = `packages/sdk/openapi/${name}.json`;
      const text = await readFile(new URL(`../openapi/${name}.json`, import.meta.url), 'utf8');
      return { file: `${name}.md`, doc: JSON.parse(text) as OpenApiDocument, source };
    }),
  );
  const files: Record<string, string> = { 'README.md': renderApiIndex(pages) };
  for (const { file, doc, source } of pages) files[file] = renderApiPage(doc, source, API_DOCS_COMMAND);
  return files;
}
