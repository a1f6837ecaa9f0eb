import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, type Harness, harness } from './helpers.js';

const OPERATIONS: Array<[string, string, string]> = [
  ['get', '/book/home/v2', 'getHome'],
  ['get', '/book/home/recommend/v2', 'getRecommendBatch'],
  ['get', '/book/home/freeRead/v2', 'getFreeReadBatch'],
  ['get', '/book/home/hotBook/v2', 'getHotBookBatch'],
  ['get', '/book/hot-search', 'getHotSearch'],
  ['get', '/book/category/list/v2', 'listCategories'],
  ['get', '/book/search', 'searchBooks'],
  ['get', '/book/search-list', 'searchList'],
  ['get', '/book/detail', 'getBookDetail'],
  ['get', '/book/contents', 'getBookContents'],
  ['get', '/book/rank/save', 'saveRank'],
  ['get', '/book/shelf/get', 'getShelf'],
  ['get', '/book/shelf/save', 'saveShelf'],
  ['get', '/book/shelf/remove', 'removeShelf'],
  ['post', '/user/register', 'registerUser'],
  ['get', '/user/day', 'getUserDay'],
  ['get', '/openId/get', 'getWechatOpenId'],
  ['get', '/openId/get/payplatform', 'getPayPlatformOpenId'],
  ['get', '/openId/get/alipay', 'getAlipayOpenId'],
];

describe('decisions.md §1 OpenAPI document of the reader API', () => {
  let t: Harness;
  // biome-ignore lint/suspicious/noExplicitAny: the generated document is walked dynamically
  let doc: any;
  beforeAll(async () => {
    t = await harness(dialects[0]!);
    doc = (await t.app.inject('/openapi.json')).json();
  });
  afterAll(async () => t.close());

  it.each(OPERATIONS)(
    '%s %s is documented as %s with tags, 200 and the error statuses',
    (method, path, operationId) => {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.operationId).toBe(operationId);
      expect(op.tags.length).toBeGreaterThan(0);
      for (const status of ['200', '400', '429', '500']) expect(op.responses[status], status).toBeDefined();
    },
  );

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
