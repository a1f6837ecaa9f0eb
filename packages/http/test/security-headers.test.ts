import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { helmetHeaders } from '../src/security-headers.js';

const OPTIONS = {
  contentSecurityPolicy: false,
  crossOriginResourcePolicy: { policy: 'cross-origin' },
} as const;

/** What helmet's own middleware puts on a real Node response, for comparison. */
async function helmetOnRealResponse(): Promise<Record<string, string>> {
  const mw = helmet(OPTIONS);
  const server = createServer((req, res) => mw(req, res, () => res.end('ok')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise((resolve, reject) => {
      request({ port, host: '127.0.0.1', path: '/' }, (res) => {
        res.resume();
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') out[k] = v;
        resolve(out);
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
  }
}

// Security headers are computed once from helmet; they must be helmet's own.
describe('helmetHeaders', () => {
  it('equals what the helmet middleware sets on a response', async () => {
    const real = await helmetOnRealResponse();
    const computed = helmetHeaders(OPTIONS);
    expect(Object.keys(computed).length).toBeGreaterThan(8);
    for (const [name, value] of Object.entries(computed)) expect(real[name], name).toBe(value);
    expect(computed['x-powered-by']).toBeUndefined();
  });

  it('refuses options with a Content-Security-Policy, which may depend on the request', () => {
    expect(() => helmetHeaders({ crossOriginResourcePolicy: { policy: 'cross-origin' } })).toThrow(/CSP/);
  });
});
