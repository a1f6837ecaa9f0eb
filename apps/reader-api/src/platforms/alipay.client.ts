import { readFile } from 'node:fs/promises';
import { invalid } from '@readlib/catalog';
import type { OpenIdData } from '@readlib/contracts';
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

export interface AlipayOptions {
  gateway: string;
  keys: Record<string, { privateKeyFile: string; publicKeyFile: string }>;
  timeoutMs: number;
  fetch: FetchLike;
  now: () => number;
}

const METHOD = 'alipay.system.oauth.token';
const NODE = 'alipay_system_oauth_token_response';

/**
 * alipay.system.oauth.token with grant_type=authorization_code, signed RSA2 with the app key and
 * verified with the Alipay public key. openid is "<user_id>|<open_id>": Alipay's newer apps answer
 * open_id, older ones user_id only; whichever is missing repeats the other.
 */
export async function alipayCodeToToken(
  opts: AlipayOptions,
  input: { appId: string; code: string },
): Promise<OpenIdData> {
  const files = opts.keys[input.appId];
  // without the app's private key nothing can be signed: the appId is not one this server serves
  if (!files) throw invalid(`appId ${input.appId} is not configured for the payment platform`);
  const [privatePem, publicPem] = await Promise.all([
    readFile(files.privateKeyFile, 'utf8'),
    readFile(files.publicKeyFile, 'utf8'),
  ]);
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
  const sign = rsa2Sign(signingContent({ ...common, ...business }), privateKeyFrom(privatePem));
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
  return readAnswer(text, publicKeyFrom(publicPem));
}

function readAnswer(text: string, alipayKey: ReturnType<typeof publicKeyFrom>): OpenIdData {
  const body = parseObject('alipay', text);
  const failure = body.error_response as Record<string, unknown> | undefined;
  if (failure) throw upstreamError('alipay', `refused the code (${reason(failure)})`);
  const node = body[NODE] as Record<string, unknown> | undefined;
  if (!node || typeof node !== 'object') throw upstreamError('alipay', `answer lacks ${NODE}`);
  const signed = signedNodeText(text, NODE);
  if (typeof body.sign !== 'string' || !signed || !rsa2Verify(signed, body.sign, alipayKey)) {
    throw upstreamError('alipay', 'answer signature does not verify');
  }
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
