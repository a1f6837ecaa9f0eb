import { readFile } from 'node:fs/promises';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient, createReaderClient } from '../src/index.js';
import {
  generateOpenApiDocuments,
  openApiPaths,
  REGENERATE_COMMAND,
  type ServiceName,
  sortKeys,
} from '../tools/openapi.generator.js';

const services: ServiceName[] = ['reader-api', 'admin-api'];

type Doc = { openapi: string; paths: Record<string, Record<string, { operationId?: string }>> };
const operationIds = (doc: Doc) =>
  Object.values(doc.paths)
    .flatMap((ops) => Object.values(ops).map((op) => op.operationId))
    .sort();

describe('committed OpenAPI documents (packages/sdk/openapi)', () => {
  let fresh: Record<ServiceName, string>;
  beforeAll(async () => {
    fresh = await generateOpenApiDocuments();
  });

  it.each(services)('%s.json is up to date with the routes', async (name) => {
    const committed = await readFile(openApiPaths[name], 'utf8').catch(() => '(missing)');
    expect(
      committed === fresh[name],
      `packages/sdk/openapi/${name}.json is out of date with the routes: run \`${REGENERATE_COMMAND}\` and commit the result`,
    ).toBe(true);
  });

  it('generation is deterministic (same text twice, keys sorted)', async () => {
    expect(await generateOpenApiDocuments()).toEqual(fresh);
    const doc = JSON.parse(fresh['admin-api']);
    expect(JSON.stringify(doc)).toBe(JSON.stringify(sortKeys(doc)));
  });

  it.each(services)('%s is a valid OpenAPI 3.1 document', async (name) => {
    const doc = JSON.parse(fresh[name]) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(JSON.parse(fresh[name]));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  // the OpenAPI validator above does not compile the schemas: a draft-07 tuple (`items: [...]`) passed
  // it and broke 3.1 code generators, which read schemas as JSON Schema 2020-12
  it.each(services)('%s: every component schema compiles as JSON Schema 2020-12', (name) => {
    const doc = JSON.parse(fresh[name]) as { components: { schemas: Record<string, unknown> } };
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'openapi', components: doc.components }, undefined, undefined, false);
    const broken = Object.keys(doc.components.schemas).flatMap((schema) => {
      try {
        ajv.compile({ $ref: `openapi#/components/schemas/${schema}` });
        return [];
      } catch (err) {
        return [`${schema}: ${(err as Error).message}`];
      }
    });
    expect(broken).toEqual([]);
  });

  // Swagger UI (each service's /docs) and most renderers read descriptions as Markdown, which takes
  // `<token>` for an HTML tag and shows nothing: such text must sit in a code span
  it.each(services)('%s: no description holds <...> outside a code span', (name) => {
    const found: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) walk(item, `${path}[${i}]`);
      } else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (
            key === 'description' &&
            typeof value === 'string' &&
            /<[^>]*>/.test(value.replace(/`[^`]*`/g, ''))
          )
            found.push(`${path}: ${value}`);
          walk(value, `${path}.${key}`);
        }
      }
    };
    walk(JSON.parse(fresh[name]), name);
    expect(found).toEqual([]);
  });

  it('every documented operation has a client method of the same name, and no method lacks one', () => {
    const base = { baseUrl: 'http://unused.test' };
    expect(operationIds(JSON.parse(fresh['reader-api']))).toEqual(
      Object.keys(createReaderClient(base)).sort(),
    );
    const adminMethods = Object.keys(createAdminClient(base)).filter(
      (m) => m !== 'setToken' && m !== 'getToken',
    );
    expect(operationIds(JSON.parse(fresh['admin-api']))).toEqual(adminMethods.sort());
  });
});
