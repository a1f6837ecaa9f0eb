import { type RouteSpec, readerRoutes } from '@readlib/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Harness, harness } from './helpers.js';

const routes = Object.entries(readerRoutes as Record<string, RouteSpec>);

describe('the reader service serves its route table, and only it', () => {
  let t: Harness;
  // biome-ignore lint/suspicious/noExplicitAny: the generated document is walked dynamically
  let doc: any;
  beforeAll(async () => {
    t = await harness(dialects[0]!);
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

  it('a GET that writes has no HEAD route; other GETs answer HEAD', () => {
    for (const [id, spec] of routes) {
      if (spec.method !== 'GET') continue;
      expect([id, t.app.hasRoute({ method: 'HEAD', url: spec.url })]).toEqual([id, !spec.write]);
    }
  });
});
