/**
 * The names the README's and the SDK page's examples take from the code around them (a page, a form),
 * declared for test/packed-sdk.test.ts, which compiles each example as written into examples/;
 * run-examples.mjs gives them values.
 */
declare const openId: string;
declare const fileName: string;
declare const username: string;
declare const password: string;
declare const baseUrl: string;
declare const router: { push(path: string): void };
declare const fileInput: HTMLInputElement;
declare const bar: HTMLProgressElement;
declare const controller: AbortController;
declare const file: File;
declare const admin: import('@readlib/sdk').AdminClient;
