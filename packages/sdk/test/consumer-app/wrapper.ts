/**
 * A front-end team's own library over the SDK, compiled with `declaration: true`: its exported
 * functions' types are inferred from the clients, so the compiler must name the SDK's types in the
 * declarations it writes (test/packed-sdk.test.ts reads them).
 */
import { type AdminClient, type ContentsNode, createReaderClient, type ReaderClient } from '@readlib/sdk';

export const readerAt = (baseUrl: string) => createReaderClient({ baseUrl });
export const loadContents = (reader: ReaderClient, fileName: string) => reader.getBookContents({ fileName });
export const loadHome = (reader: ReaderClient, openId: string) => reader.getHome({ openId });
export const signIn = (admin: AdminClient, username: string, password: string) =>
  admin.login(username, password);
export const loadBook = (admin: AdminClient, fileName: string) => admin.getBook({ fileName });
export const loadPage = (admin: AdminClient) => admin.listBooks({ sort: '-id' });
export const byAuthor = (reader: ReaderClient, author: string) => reader.searchList({ author });
export const depth = (node: ContentsNode): number => 1 + Math.max(0, ...node.children.map(depth));
