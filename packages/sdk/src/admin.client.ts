import type { AdminBookDetail } from '@readlib/contracts';
import type { AdminRoutes } from '@readlib/contracts/routes';
import type {
  AdminClient,
  AdminClientOptions,
  MiniProgramAdminClient,
  UploadFile,
} from './admin-client.types.js';
import { ApiError } from './api-error.js';
import { type AdminRouteTypes, adminRouteCalls } from './route-calls.generated.js';
import { type RouteCall, requestOf, resultOf, routeMethods } from './route-client.js';
import {
  type CallOptions,
  createTransport,
  type LocalFile,
  type MiniProgramFetch,
  type RequestSpec,
  type UploadCallOptions,
  type UploadProgress,
} from './transport.js';
import { progressReporter } from './upload-progress.js';
import { xhrFetch } from './xhr-fetch.js';

type Spec = Omit<RequestSpec, 'token'>;

function uploadForm(file: UploadFile, fileName?: string): FormData {
  const blob =
    file instanceof Uint8Array
      ? new Blob([file as Uint8Array<ArrayBuffer>], { type: 'application/epub+zip' })
      : file;
  const given = (file as { name?: unknown }).name;
  const form = new FormData();
  form.append('file', blob, fileName ?? (typeof given === 'string' && given ? given : 'book.epub'));
  return form;
}

/** A file given by its local path (mini-programs), as opposed to bytes, a Blob or a File. */
const isLocalFile = (file: UploadFile | LocalFile): file is LocalFile =>
  !(file instanceof Uint8Array) && typeof (file as Partial<LocalFile>).filePath === 'string';

/**
 * The request of one upload attempt: bytes as a fresh form, or a local file through the adapter's
 * `uploadFile` (refused before sending when the client's fetch has none); with a progress of its own
 * when the caller listens (the size of a local file is known only from the platform's events).
 */
function uploadSpec(
  route: RouteCall,
  file: UploadFile | LocalFile,
  fileName: string | undefined,
  fetch: unknown,
  onProgress: ((progress: UploadProgress) => void) | undefined,
): Spec {
  const local = isLocalFile(file);
  const size = local ? undefined : file instanceof Uint8Array ? file.byteLength : file.size;
  const progress = onProgress ? { progress: progressReporter(onProgress, size) } : {};
  // method, path and the fields its success carries, from the route table as every call has them
  const base = requestOf(route, undefined);
  const upload = (fetch as Partial<MiniProgramFetch> | undefined)?.uploadFile;
  if (!local && typeof upload === 'function') {
    // the platforms' request carries text only: a caller's mistake, refused before sending
    const msg =
      'a mini-program client uploads a book by its local path: uploadBook({ filePath }), not bytes, a Blob or a File';
    throw new ApiError({ family: 'admin', status: 0, code: -1, msg, kind: 'invalid' });
  }
  if (!local) {
    // fetch has no upload progress events: with a listener and no fetch of the caller's, XMLHttpRequest
    // where the runtime has one
    const xhr = onProgress && fetch === undefined && typeof XMLHttpRequest === 'function';
    const form = uploadForm(file, fileName);
    return { ...base, form, ...progress, ...(xhr ? { sendWith: xhrFetch } : {}) };
  }
  if (typeof upload !== 'function') {
    const msg =
      'a local file path is uploaded only through a mini-program adapter (@readlib/sdk/wechat or /alipay); send a File, Blob or bytes otherwise';
    throw new ApiError({ family: 'admin', status: 0, code: -1, msg, kind: 'invalid' });
  }
  const { filePath } = file;
  return {
    ...base,
    ...progress,
    sendWith: (url, { headers, signal, timeoutMs, onUploadProgress }) =>
      upload(url, {
        filePath,
        field: 'file',
        headers,
        ...(signal ? { signal } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
        ...(onUploadProgress ? { onUploadProgress } : {}),
      }),
  };
}

/**
 * A client of the administration API; see `AdminClient` for the methods. Over a mini-program adapter
 * it is a `MiniProgramAdminClient`, whose `uploadBook` takes a local file path.
 */
export function createAdminClient(
  options: AdminClientOptions & { fetch: MiniProgramFetch },
): MiniProgramAdminClient;
export function createAdminClient(options: AdminClientOptions): AdminClient;
export function createAdminClient(options: AdminClientOptions): AdminClient | MiniProgramAdminClient {
  const send = createTransport('admin', options);
  let token = options.token;

  /**
   * A call behind the token: on 401 / -2 the hook may hand a fresh token for one retry. Each attempt
   * gets its own timer; the caller's signal covers both.
   */
  const authed = async (spec: Spec | (() => Spec), opts?: CallOptions): Promise<Record<string, unknown>> => {
    const build = typeof spec === 'function' ? spec : () => spec;
    try {
      return await send({ ...build(), token }, opts);
    } catch (err) {
      if (!(err instanceof ApiError) || err.kind !== 'unauthorized' || !options.onUnauthorized) throw err;
      let fresh: unknown;
      try {
        fresh = await options.onUnauthorized(err);
      } catch (hookError) {
        // still the refusal the caller handles, carrying what went wrong in their hook
        throw new ApiError({ ...err, cause: hookError });
      }
      if (typeof fresh !== 'string' || fresh === '') throw err;
      token = fresh;
      return send({ ...build(), token }, opts);
    }
  };
  // the token is not sent where the table says a route is public (login, health)
  const methods = routeMethods<AdminRoutes, AdminRouteTypes>(adminRouteCalls, (route, request, opts) =>
    route.access === 'public' ? send(request, opts) : authed(request, opts),
  );
  return {
    ...methods,
    async login(username, password, opts) {
      const data = await methods.login({ username, password }, opts);
      token = data.token;
      return data;
    },
    async logout(opts) {
      try {
        await methods.logout(opts);
      } finally {
        token = undefined;
      }
    },
    setToken: (next) => {
      token = next;
    },
    getToken: () => token,
    // a fresh form per attempt, so a retry after onUnauthorized sends the whole file again; a local
    // file's upload takes its call options second (the platforms cannot name the part)
    uploadBook: async (
      file: UploadFile | LocalFile,
      fileNameOrCall?: string | UploadCallOptions,
      opts?: UploadCallOptions,
    ): Promise<AdminBookDetail> => {
      const fileName = typeof fileNameOrCall === 'string' ? fileNameOrCall : undefined;
      const callOptions = typeof fileNameOrCall === 'object' ? fileNameOrCall : opts;
      const onProgress = typeof callOptions?.onProgress === 'function' ? callOptions.onProgress : undefined;
      const route = adminRouteCalls.uploadBook;
      const body = await authed(
        () => uploadSpec(route, file, fileName, options.fetch, onProgress),
        callOptions,
      );
      return resultOf(route, body) as AdminBookDetail;
    },
  };
}
