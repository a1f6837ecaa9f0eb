import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_DOCS_COMMAND, apiDocsDir, renderApiDocs } from '../tools/api-docs.files.js';
import {
  bodyOf,
  constraintsOf,
  type OpenApiDocument,
  renderApiPage,
  typeOf,
} from '../tools/api-docs.renderer.js';

const services = ['reader-api', 'admin-api'] as const;
const documentOf = async (name: string): Promise<OpenApiDocument> =>
  JSON.parse(await readFile(new URL(`../openapi/${name}.json`, import.meta.url), 'utf8')) as OpenApiDocument;

describe('docs/api (the OpenAPI documents as Markdown)', () => {
  let fresh: Record<string, string>;
  beforeAll(async () => {
    fresh = await renderApiDocs();
  });

  it('is up to date with packages/sdk/openapi/*.json, file by file', async () => {
    const committed = (await readdir(apiDocsDir).catch(() => [])).sort();
    expect(committed, `docs/api holds other files than it should: run \`${API_DOCS_COMMAND}\``).toEqual(
      Object.keys(fresh).sort(),
    );
    for (const [file, text] of Object.entries(fresh)) {
      const onDisk = await readFile(join(apiDocsDir, file), 'utf8');
      expect(
        onDisk === text,
        `docs/api/${file} is out of date with the OpenAPI documents: run \`${API_DOCS_COMMAND}\` and commit the result`,
      ).toBe(true);
    }
  });

  it.each(services)('%s.md lists every operation with its method, path and summary', async (name) => {
    const doc = await documentOf(name);
    const page = fresh[`${name}.md`] as string;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(page).toContain(`### ${op.operationId}\n`);
        expect(page).toContain(`\`${method.toUpperCase()} ${path}\`: ${op.summary}`);
      }
    }
  });

  it.each(services)(
    '%s.md has a table of every schema its operations use, and links only to those',
    async (name) => {
      const page = fresh[`${name}.md`] as string;
      const anchors = new Set([...page.matchAll(/<a id="(schema-[a-z0-9_-]+)"><\/a>/g)].map((m) => m[1]));
      const linked = new Set([...page.matchAll(/\]\(#(schema-[a-z0-9_-]+)\)/g)].map((m) => m[1]));
      expect([...linked].filter((a) => !anchors.has(a))).toEqual([]);
      expect(anchors.has('schema-booksummary') || anchors.has('schema-adminbook')).toBe(true);
    },
  );

  it('a change of the document changes the page (the freshness check can fail)', async () => {
    const doc = await documentOf('reader-api');
    const before = renderApiPage(doc, 'x.json', API_DOCS_COMMAND);
    const op = doc.paths['/book/detail']?.get as { summary: string };
    op.summary = 'Something else';
    expect(renderApiPage(doc, 'x.json', API_DOCS_COMMAND)).not.toBe(before);
  });

  it('renders types, bounds and envelopes in a few words', () => {
    expect(typeOf({ type: 'array', items: { $ref: '#/components/schemas/BookSummary' } })).toBe(
      '[BookSummary](#schema-booksummary)[]',
    );
    expect(typeOf({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string or null');
    expect(typeOf({ type: 'string', format: 'binary' })).toBe('string (binary)');
    expect(constraintsOf({ type: 'integer', minimum: 1, maximum: 5 })).toBe('1-5');
    expect(constraintsOf({ type: 'string', maxLength: 128, default: '' })).toBe('≤ 128 chars, default `""`');
    expect(
      bodyOf({
        type: 'object',
        properties: {
          error_code: { type: 'integer' },
          msg: { type: 'string' },
          data: { $ref: '#/components/schemas/BookDetail' },
        },
      }),
    ).toBe('envelope {error_code, msg, data: [BookDetail](#schema-bookdetail)}');
  });
});
