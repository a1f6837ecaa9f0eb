import { adminRoutes, type RouteSpec } from '@readlib/contracts';
import { testDialects } from '@readlib/data/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from './helpers.js';

const routes = Object.entries(adminRoutes as Record<string, RouteSpec>);
const [dialect] = await testDialects();

describe('the admin service serves its route table, and only it', () => {
  let t: Harness;
  // biome-ignore lint/suspicious/noExplicitAny: the generated document is walked dynamically
  let doc: any;
  beforeAll(async () => {
    t = await harness(dialect!);
    doc = (await t.app.inject('/openapi.json')).json();
  });
  afterAll(async () => t.close());

  it.each(routes)('%s is served at its method and URL, documented with its operationId', (id, spec) => {
    expect(t.app.hasRoute({ method: spec.method, url: spec.url })).toBe(true);
    const op = doc.paths[spec.url]?.[spec.method.toLowerCase()];
    expect(op?.operationId).toBe(id);
    expect(op.summary).toBe(spec.summary);
    for (const status of [200, ...(spec.errors ?? [])])
      expect(op.responses[status], String(status)).toBeDefined();
  });

  it('documents no operation the table does not hold', () => {
    const documented = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops as Record<string, { operationId: string }>).map((op) => op.operationId),
    );
    expect(documented.sort()).toEqual(routes.map(([id]) => id).sort());
  });

  it.each(routes)('%s needs a token exactly when the table says so', async (id, spec) => {
    const res = await t.app.inject({ method: spec.method, url: spec.url });
    const refused = res.statusCode === 401 && res.json().code === -2;
    expect([id, refused]).toEqual([id, spec.access !== 'public']);
    const op = doc.paths[spec.url][spec.method.toLowerCase()];
    // OpenAPI: public operations override the document's bearer requirement with none
    expect([id, op.security]).toEqual([id, spec.access === 'public' ? [] : undefined]);
  });
});
