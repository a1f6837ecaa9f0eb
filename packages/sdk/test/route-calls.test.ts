import { readFile } from 'node:fs/promises';
import { adminRoutes, readerRoutes } from '@readlib/contracts/routes';
import { describe, expect, it } from 'vitest';
import { adminRouteCalls, readerRouteCalls } from '../src/route-calls.generated.js';
import { REGENERATE_COMMAND } from '../tools/openapi.generator.js';
import { routeCallOf, routeCallsPath, routeCallsSource } from '../tools/route-calls.generator.js';

describe("the SDK's index of the routes it calls (src/route-calls.generated.ts)", () => {
  it('is up to date with the route tables', async () => {
    const committed = await readFile(routeCallsPath, 'utf8').catch(() => '(missing)');
    expect(
      committed === routeCallsSource(),
      `src/route-calls.generated.ts is out of date with the routes: run \`${REGENERATE_COMMAND}\` and commit the result`,
    ).toBe(true);
  });

  it('has one call per route of each table, with its method, url and reply', () => {
    for (const [table, calls] of [
      [readerRoutes, readerRouteCalls],
      [adminRoutes, adminRouteCalls],
    ] as const) {
      expect(Object.keys(calls)).toEqual(Object.keys(table));
      for (const [id, spec] of Object.entries(table)) {
        const call = calls[id as keyof typeof calls];
        expect(call, id).toMatchObject({ method: spec.method, url: spec.url, reply: spec.reply });
      }
    }
  });

  it('says how the input travels: a named query, a query written in the table, a body, none', () => {
    expect(readerRouteCalls.getHome.input).toBe('query');
    // the shelf writes' query is a schema written in the route table, not a name
    expect(typeof readerRoutes.saveShelf.querystring).toBe('object');
    expect(readerRouteCalls.saveShelf.input).toBe('query');
    expect(adminRouteCalls.login).toMatchObject({ input: 'body', access: 'public' });
    expect('input' in readerRouteCalls.getRecommendBatch).toBe(false);
    expect(routeCallOf({ method: 'GET', url: '/x', summary: '', tags: [], reply: { ack: true } })).toEqual({
      method: 'GET',
      url: '/x',
      reply: { ack: true },
    });
  });

  it('carries no schema: nothing of TypeBox reaches the SDK through it', () => {
    const text = routeCallsSource();
    expect(text).not.toMatch(/TypeBox|\$id|"type":/);
  });
});
