/**
 * The names the mini-program examples take from the page around them; `wx`, `my` and `Page` come from
 * the platform's typings, which test/packed-sdk.test.ts references beside this file.
 */
declare const openId: string;
declare const username: string;
declare const password: string;
