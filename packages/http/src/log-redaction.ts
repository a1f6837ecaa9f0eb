import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that carry credentials or who the reader is: the login-code exchange's secret and
 * code, tokens, passwords, the reader's openId.
 */
const SENSITIVE_NAMES =
  'secret|code|js_code|token|access_token|refresh_token|password|authorization|session_key|sign|openid';
const SENSITIVE = new RegExp(`^(${SENSITIVE_NAMES})$`, 'i');
/** The same names as string members of a JSON value (shelf/save's `shelf={"openId":…}`). */
const SENSITIVE_MEMBER = new RegExp(`("(?:${SENSITIVE_NAMES})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');

/** A query string's name or value decoded as a form decodes it; undefined when malformed. */
function decodeQueryPart(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** A query value with the sensitive members of the JSON it carries replaced; other values as they are. */
function redactValue(raw: string): string {
  // no quote, no JSON member: most values are left without decoding
  if (!raw.includes('%22') && !raw.includes('"')) return raw;
  const value = decodeQueryPart(raw);
  if (value === undefined) return raw;
  const redacted = value.replace(SENSITIVE_MEMBER, '$1"[redacted]"');
  return redacted === value ? raw : encodeURIComponent(redacted);
}

/**
 * A request URL fit for the log: values of credential-bearing query parameters replaced, so
 * `GET /openId/get?appId&code&secret` does not write the mini-program secret and the one-time login
 * code to every request line; a JSON value's sensitive members are replaced the same way.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const rawName = pair.slice(0, eq);
      const name = decodeQueryPart(rawName) ?? rawName;
      return SENSITIVE.test(name.trim())
        ? `${rawName}=[redacted]`
        : `${rawName}=${redactValue(pair.slice(eq + 1))}`;
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
