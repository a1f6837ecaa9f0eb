/**
 * A CommonJS TypeScript module (`.cts`, module node16): its imports compile to `require()`, which the
 * package's `exports` resolve through their `require` conditions to the CommonJS build and its
 * declarations (test/packed-sdk.test.ts compiles it with tsconfig.cjs.json and runs it from
 * require.cjs). Without them the compiler refuses the imports with TS1479.
 */
import { type ContentsNode, createReaderClient, isApiError, type ReaderClient } from '@readlib/sdk';
import { type AlipayApi, alipayFetch } from '@readlib/sdk/alipay';
import { type WechatApi, wechatFetch } from '@readlib/sdk/wechat';

export async function main(readerUrl: string): Promise<{ health: string; missing: string }> {
  const reader: ReaderClient = createReaderClient({ baseUrl: readerUrl, timeoutMs: 10_000 });
  const health = await reader.health();
  const missing = await reader.getBookDetail({ fileName: 'no-such-book' }).then(
    () => undefined,
    (err: unknown) => err,
  );
  return { health: health.status, missing: isApiError(missing) ? missing.kind : 'resolved' };
}

/** Never called: each line below must be refused by the compiler. */
export function refusedByTheCompiler(reader: ReaderClient, node: ContentsNode, wx: WechatApi, my: AlipayApi) {
  // @ts-expect-error HomeQuery (a contract type) requires openId
  void reader.getHome({});
  // @ts-expect-error a nested entry of the contents tree has no such member
  void node.children[0].nope;
  return [alipayFetch(my), wechatFetch(wx)];
}
