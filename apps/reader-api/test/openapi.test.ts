import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Harness, harness } from './helpers.js';

describe('decisions.md §1 OpenAPI document of the reader API', () => {
  let t: Harness;
  // biome-ignore lint/suspicious/noExplicitAny: the generated document is walked dynamically
  let doc: any;
  beforeAll(async () => {
    t = await harness(dialects[0]!);
    doc = (await t.app.inject('/openapi.json')).json();
  });
  afterAll(async () => t.close());

  it('documents query parameters from the contracts', async () => {
    const params = doc.paths['/book/search'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['keyword', 'openId', 'page', 'pageSize']));
    expect(doc.paths['/openId/get'].get.responses['502']).toBeDefined();
    expect(doc.paths['/book/detail'].get.responses['404']).toBeDefined();
  });

  it('the browsable docs answer', async () => {
    expect((await t.app.inject('/docs/')).statusCode).toBe(200);
  });
});
