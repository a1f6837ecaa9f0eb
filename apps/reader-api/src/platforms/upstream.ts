import { AppError } from '@readlib/contracts';

export type FetchLike = typeof fetch;

/** A login answer is a few hundred bytes; past this the platform (or whatever answers for it) is refused. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export const upstreamError = (platform: string, reason: string) =>
  new AppError('upstream', `${platform}: ${reason}`);

/**
 * One HTTP call to a login platform, bounded by the configured timeout (body included), so a silent
 * upstream gives error_code 3 instead of a hanging mini-program.
 */
export async function callPlatform(
  platform: string,
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<string> {
  try {
    const res = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await boundedText(platform, res);
    if (!res.ok) throw upstreamError(platform, `answered HTTP ${res.status}`);
    return text;
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw upstreamError(platform, `no answer within ${timeoutMs} ms`);
    }
    throw upstreamError(platform, `unreachable (${e.cause?.code ?? e.cause?.message ?? e.message})`);
  }
}

/** The platform's answer as a JSON object, or error_code 3 when it is something else. */
export function parseObject(platform: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw upstreamError(platform, 'answer is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw upstreamError(platform, 'answer is not a JSON object');
  }
  return value as Record<string, unknown>;
}

/** The body as text, refused unread past MAX_ANSWER_BYTES: relaying or even buffering it would cost memory. */
async function boundedText(platform: string, res: Response): Promise<string> {
  const tooLarge = () => upstreamError(platform, `answer larger than ${MAX_ANSWER_BYTES} bytes`);
  if (Number(res.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks).toString('utf8');
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {}); // the rest is never read
      throw tooLarge();
    }
    chunks.push(value);
  }
}
