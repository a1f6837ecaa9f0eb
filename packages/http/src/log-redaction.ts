import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry credentials or who the reader is: the login-code exchange's secret and
 * code, tokens, passwords, the reader's openId.
 */
const SENSITIVE =
  /^(secret|code|js_code|token|access_token|refresh_token|password|authorization|session_key|sign|openid)$/i;

/**
 * A request URL fit for the log: values of credential-bearing query parameters replaced, so
 * `GET /openId/get?appId&code&secret` does not write the mini-program secret and the one-time login
 * code to every "incoming request" line.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {}
      return eq >= 0 && SENSITIVE.test(name.trim()) ? `${rawName}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/** Fastify's request serializer, with the URL redacted. */
export function requestSerializer(req: FastifyRequest) {
  const version = req.headers?.['accept-version'];
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: typeof version === 'string' ? version : undefined,
    hostname: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
