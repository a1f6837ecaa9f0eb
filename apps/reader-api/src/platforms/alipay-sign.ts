import { createPrivateKey, createPublicKey, createSign, createVerify, type KeyObject } from 'node:crypto';

/** The string Alipay signs: non-empty parameters except `sign`, sorted by name, as `k=v&k=v`, raw values. */
export function signingContent(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

/** RSA2 = SHA256withRSA, base64. */
export function rsa2Sign(content: string, privateKey: KeyObject): string {
  return createSign('RSA-SHA256').update(content, 'utf8').sign(privateKey, 'base64');
}

export function rsa2Verify(content: string, signature: string, publicKey: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

/** PEM, or the bare base64 DER Alipay's console hands out (PKCS#8 private, SPKI public). */
export function privateKeyFrom(text: string): KeyObject {
  if (text.includes('-----BEGIN')) return createPrivateKey(text);
  return createPrivateKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'pkcs8' });
}

export function publicKeyFrom(text: string): KeyObject {
  if (text.includes('-----BEGIN')) return createPublicKey(text);
  return createPublicKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'spki' });
}

/**
 * The exact JSON text of `"<node>": {...}` in the raw answer: Alipay signs those bytes, so the node must
 * not be re-serialised. Scans balanced braces, skipping string contents.
 */
export function signedNodeText(raw: string, node: string): string | undefined {
  const key = raw.indexOf(`"${node}"`);
  if (key < 0) return undefined;
  const start = raw.indexOf('{', key + node.length + 2);
  if (start < 0 || raw.slice(key + node.length + 2, start).replace(/[\s:]/g, '') !== '') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return raw.slice(start, i + 1);
  }
  return undefined;
}

/** Alipay's timestamp format, in China Standard Time as the gateway expects. */
export function alipayTimestamp(ms: number): string {
  const d = new Date(ms + 8 * 60 * 60 * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}
