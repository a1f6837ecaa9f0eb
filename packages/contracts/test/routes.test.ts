import { describe, expect, it } from 'vitest';
import { adminRoutes, contractSchemaMap, type RouteSpec, readerRoutes } from '../src/index.js';

const families = [
  ['reader', readerRoutes],
  ['admin', adminRoutes],
] as const;

/** Every schema name a route names: its inputs and its answer (not a query written in place). */
function namesOf(spec: RouteSpec): string[] {
  const r = spec.reply;
  const answer =
    'data' in r ? r.data.replace(/\[\]$/, '') : 'page' in r ? r.page : 'plain' in r ? r.plain : '';
  return [spec.querystring, spec.body, answer].filter((n): n is string => typeof n === 'string' && n !== '');
}

describe.each(families)('the %s route table', (_family, table) => {
  const routes = Object.entries(table) as Array<[string, RouteSpec]>;

  it('names only schemas of the contracts', () => {
    for (const [operationId, spec] of routes)
      for (const name of namesOf(spec))
        expect(contractSchemaMap, `${operationId}: ${name}`).toHaveProperty(name);
  });

  it('writes a query in place only as an object schema of its own: no $id, and no name of a contract', () => {
    for (const [operationId, spec] of routes) {
      const q = spec.querystring;
      if (typeof q !== 'object') continue;
      expect(q.type, operationId).toBe('object');
      expect(q.$id, operationId).toBeUndefined();
      expect(JSON.stringify(q), operationId).not.toContain('$ref');
    }
  });

  it('has one route per method and URL, each an absolute path', () => {
    const keys = routes.map(([, s]) => `${s.method} ${s.url}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [, s] of routes) expect(s.url).toMatch(/^\/[A-Za-z0-9/_-]*$/);
  });

  it('takes a body only on POST, and a GET that writes is flagged as such only on GET', () => {
    for (const [operationId, s] of routes) {
      if (s.body) expect(s.method, operationId).toBe('POST');
      if (s.write) expect(s.method, operationId).toBe('GET');
    }
  });

  it('gives every route a summary and a tag', () => {
    for (const [operationId, s] of routes) {
      expect(s.summary.length, operationId).toBeGreaterThan(0);
      expect(s.tags.length, operationId).toBeGreaterThan(0);
    }
  });
});

describe('access', () => {
  it('keeps every admin route behind the token but login and health', () => {
    const open = Object.entries(adminRoutes as Record<string, RouteSpec>).filter(
      ([, s]) => s.access === 'public',
    );
    expect(open.map(([id]) => id).sort()).toEqual(['health', 'login', 'ready']);
  });

  it('has no token in the reader family (every route is public)', () => {
    for (const [operationId, s] of Object.entries(readerRoutes as Record<string, RouteSpec>))
      expect([operationId, s.access ?? 'public']).toEqual([operationId, 'public']);
  });
});
