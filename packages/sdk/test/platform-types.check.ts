/// <reference types="miniprogram-api-typings" />
/// <reference types="@mini-types/alipay" />
/**
 * Type-level test, checked with test/client-types.check.ts: the adapters take the platforms' own
 * objects as their official typings declare them (WeChat's miniprogram-api-typings, Alipay's
 * @mini-types/alipay), so a TypeScript mini-program passes `wx` / `my` without a cast.
 */
import { expectTypeOf } from 'vitest';
import { alipayFetch } from '../src/alipay.adapter.js';
import type { MiniProgramFetch } from '../src/index.js';
import { wechatFetch } from '../src/wechat.adapter.js';

expectTypeOf(wechatFetch(wx)).toEqualTypeOf<MiniProgramFetch>();
expectTypeOf(alipayFetch(my)).toEqualTypeOf<MiniProgramFetch>();
// @ts-expect-error each adapter takes its own platform's object
wechatFetch(my);
