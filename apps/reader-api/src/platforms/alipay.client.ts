import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { OpenIdData } from '@readlib/contracts';
import { invalid } from '@readlib/contracts';
import {
  alipayTimestamp,
  privateKeyFrom,
  publicKeyFrom,
  rsa2Sign,
  rsa2Verify,
  signedNodeText,
  signingContent,
} from './alipay-sign.js';
import { callPlatform, type FetchLike, parseObject, upstreamError } from './upstream.js';

export interface AlipayKeyFiles {
  privateKeyFile: string;
  publicKeyFile: string;
}

/** An app's private key (signs requests) and Alipay's public key (verifies answers). */
export interface AlipayKeys {
  appPrivate: KeyObject;
  alipayPublic: KeyObject;
}

export interface AlipayOptions {
  gateway: string;
  keys: Map<string, AlipayKeys>;
  timeoutMs: number;
  fetch: FetchLike;
  now: () => number;
}

const METHOD = 'alipay.system.oauth.token';
const NODE = 'alipay_system_oauth_token_response';

/**
 * Reads and parses every configured key file once, at start: a missing or garbled file stops the
 * service with its name rather than failing each login of that app later as an internal error.
 */
export function loadAlipayKeys(files: Record<string, AlipayKeyFiles>): Map<string, AlipayKeys> {
  const keys = new Map<string, AlipayKeys>();
  for (const [appId, f] of Object.entries(files)) {
    keys.set(appId, {
      appPrivate: keyFrom(appId, f.privateKeyFile, privateKeyFrom),
      alipayPublic: keyFrom(appId, f.publicKeyFile, publicKeyFrom),
    });
  }
  return keys;
}

function keyFrom(appId: string, file: string, parse: (text: string) => KeyObject): KeyObject {
  try {
    return parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(`ALIPAY_APP_KEYS: the key file of app "${appId}" (${file}) is unusable: ${why}`);
  }
}

/**
 * alipay.system.oauth.token with grant_type=authorization_code, signed RSA2 with the app key and
 * verified with the Alipay public key. openid is "<user_id>|<open_id>": Alipay's newer apps answer
 * open_id, older ones user_id only; whichever is missing repeats the other.
 */
export async function alipayCodeToToken(
  opts: AlipayOptions,
  input: { appId: string; code: string },
): Promise<OpenIdData> {
  const keys = opts.keys.get(input.appId);
  // without the app's private key nothing can be signed: the appId is not one this server serves
  if (!keys) throw invalid(`appId ${input.appId} is not configured for the payment platform`);
  const common: Record<string, string> = {
    app_id: input.appId,
    method: METHOD,
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: alipayTimestamp(opts.now()),
    version: '1.0',
  };
  const business = { grant_type: 'authorization_code', code: input.code };
  const sign = rsa2Sign(signingContent({ ...common, ...business }), keys.appPrivate);
  // as Alipay's SDKs do: common parameters in the query string, business ones in the form body
  const url = new URL(opts.gateway);
  for (const [k, v] of Object.entries({ ...common, sign })) url.searchParams.set(k, v);
  const text = await callPlatform(
    'alipay',
    opts.fetch,
    url.toString(),
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
      body: new URLSearchParams(business).toString(),
    },
    opts.timeoutMs,
  );
  return readAnswer(text, keys.alipayPublic);
}

function readAnswer(text: string, alipayKey: KeyObject): OpenIdData {
  const body = parseObject('alipay', text);
  const failure = body.error_response as Record<string, unknown> | undefined;
  if (failure) throw upstreamError('alipay', `refused the code (${reason(failure)})`);
  if (!body[NODE] || typeof body[NODE] !== 'object') throw upstreamError('alipay', `answer lacks ${NODE}`);
  // JSON.parse keeps the last of repeated keys while the signature covers the first: an unsigned
  // node appended to a genuine answer must not be what is read
  if (text.split(`"${NODE}"`).length > 2) throw upstreamError('alipay', `answer repeats ${NODE}`);
  const signed = signedNodeText(text, NODE);
  if (typeof body.sign !== 'string' || !signed || !rsa2Verify(signed, body.sign, alipayKey)) {
    throw upstreamError('alipay', 'answer signature does not verify');
  }
  // the values are read from the very bytes that were verified
  const node = JSON.parse(signed) as Record<string, unknown>;
  if (node.code !== undefined && String(node.code) !== '10000') {
    throw upstreamError('alipay', `refused the code (${reason(node)})`);
  }
  const userId = str(node.user_id);
  const openId = str(node.open_id);
  const token = str(node.access_token);
  if (!(userId || openId) || !token) throw upstreamError('alipay', 'answer lacks user_id or access_token');
  return { openid: `${userId || openId}|${openId || userId}`, session_key: token };
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

function reason(node: Record<string, unknown>): string {
  const code = str(node.sub_code) || str(node.code);
  const msg = str(node.sub_msg) || str(node.msg);
  return [code, msg].filter(Boolean).join(' ') || 'no reason given';
}
