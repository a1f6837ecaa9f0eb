import { rng } from './gen.js';
import type { Sample } from './servers.js';

export interface Churn {
  /** stops the writes; resolves with how many were answered with success and how many were not */
  stop(): Promise<{ ok: number; failed: number }>;
}

/**
 * Book edits through the admin API at `perSecond` while a reader endpoint is measured: an operator at
 * work (or an import) moves the catalogue version, which readers must notice on their next request.
 * Each edit renames a sampled book's title back and forth, so the catalogue ends as it began.
 */
export function startChurn(
  adminUrl: string,
  token: string,
  sample: Pick<Sample, 'fileNames' | 'titles'>,
  perSecond: number,
): Churn {
  const r = rng(7);
  const renamed = new Set<number>();
  let ok = 0;
  let failed = 0;
  const fail = (why: string) => {
    // the first few reasons, so a failing run says why
    if (failed++ < 3) console.error(`book edit failed: ${why}`);
  };
  const inFlight = new Set<Promise<void>>();
  const edit = (i = Math.floor(r() * sample.fileNames.length)) => {
    const title = renamed.delete(i) ? sample.titles[i]! : (renamed.add(i), `${sample.titles[i]} ·`);
    const p = fetch(`${adminUrl}/book/update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ fileName: sample.fileNames[i], title }),
    })
      .then(async (res) => {
        const body = (await res.json()) as { code?: number; msg?: string };
        if (res.ok && body.code === 0) ok++;
        else fail(`${res.status} ${body.msg}`);
      })
      .catch((err: Error) => fail(err.message))
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
  const timer = perSecond > 0 ? setInterval(() => edit(), 1000 / perSecond) : undefined;
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      // put back the titles still renamed
      for (const i of [...renamed]) edit(i);
      await Promise.all(inFlight);
      return { ok, failed };
    },
  };
}
