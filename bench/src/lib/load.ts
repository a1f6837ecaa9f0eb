import autocannon from 'autocannon';
import { rng } from './gen.js';
import type { Server } from './servers.js';

/** The operator serve.ts creates for benchmarks. */
export const BENCH_LOGIN = { username: 'bench', password: 'bench-password-1' };

export async function adminLogin(admin: Server): Promise<string> {
  const res = await fetch(`${admin.url}/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_LOGIN),
  });
  const body = (await res.json()) as { data?: { token?: string } };
  if (!body.data?.token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.data.token;
}

/** An autocannon run of GETs whose paths a seeded generator draws, so runs are repeatable. */
export function loadGet(
  url: string,
  path: (r: () => number) => string,
  opts: {
    connections: number;
    seconds: number;
    seed: number;
    /** stop after this many requests instead of after `seconds` */
    requests?: number;
    headers?: Record<string, string>;
    /** requests per second from all connections together (autocannon's overallRate); none: as fast as answered */
    rate?: number;
  },
): Promise<autocannon.Result> {
  const r = rng(opts.seed);
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: opts.connections,
        duration: opts.seconds,
        ...(opts.requests ? { amount: opts.requests } : {}),
        ...(opts.headers ? { headers: opts.headers } : {}),
        ...(opts.rate ? { overallRate: opts.rate } : {}),
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path(r) }) }],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
}
