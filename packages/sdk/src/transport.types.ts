/** The shapes the transport, its fetch implementations and the clients share (types only). */
/** What the SDK passes to `fetch`: enough for browsers, Node 20 and mini-program request adapters. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /**
   * Present only when the call has a timeout or a caller's signal: aborted when either fires. An adapter
   * may ignore it (the call still rejects on time; only the request itself is not cancelled).
   */
  signal?: AbortSignal;
  /**
   * Present only when the call has a timeout: its milliseconds, for an adapter to pass on as its
   * platform's own `timeout` option (`fetch` has none and ignores it). An adapter whose platform gives
   * up first rejects with an error named `TimeoutError`, which the call reports as kind `'timeout'`.
   */
  timeoutMs?: number;
  /**
   * Present only on an upload whose caller passed `onProgress`: a fetch that can watch the request body
   * go out calls it with the bytes sent so far (the SDK's own XMLHttpRequest path does; the global
   * `fetch` cannot, and a fetch that ignores it still gets the end reported by the SDK).
   */
  onUploadProgress?: (progress: UploadProgress) => void;
}

/** The part of a fetch `Response` the SDK reads. */
export interface FetchResponseLike {
  status: number;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
  text(): Promise<string>;
}

/** A fetch-like function: the global `fetch`, or an adapter over a mini-program's request API. */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;

/** A file on the device, named by the local path a mini-program's file picker gives. */
export interface LocalFile {
  /** e.g. `tempFiles[0].path` of `wx.chooseMessageFile`, `my.chooseFileFromDisk`'s `apFilePath` */
  filePath: string;
}

/** What the SDK passes to `uploadFile`: a multipart POST of one local file. */
export interface UploadInit {
  /** the local path of the file to send */
  filePath: string;
  /** the multipart field the service reads the file from */
  field: string;
  /** no content type: the platform writes the multipart one with its boundary */
  headers: Record<string, string>;
  /** as in `FetchInit` */
  signal?: AbortSignal;
  /** as in `FetchInit` */
  timeoutMs?: number;
  /** as in `FetchInit`: the adapters feed it from the platform's `UploadTask.onProgressUpdate` */
  onUploadProgress?: (progress: UploadProgress) => void;
}

/**
 * A fetch-like function that can also upload a local file, as the mini-program adapters return
 * (`@readlib/sdk/wechat`, `@readlib/sdk/alipay`). An admin client built on one takes a `LocalFile` in
 * `uploadBook`.
 */
export interface MiniProgramFetch {
  (url: string, init: FetchInit): Promise<FetchResponseLike>;
  uploadFile(url: string, init: UploadInit): Promise<FetchResponseLike>;
}

/** A query object: undefined values are left out, everything else is sent as its string form. */
export type QueryInput = object;

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  query?: QueryInput;
  /** sent as application/json */
  json?: object;
  /** sent as multipart/form-data (the fetch implementation writes the boundary) */
  form?: FormData;
  /** sends the request instead of `fetch` (a mini-program adapter's `uploadFile`) */
  sendWith?: (url: string, init: FetchInit) => Promise<FetchResponseLike>;
  /** an upload's progress, for this attempt: fed by the fetch when it can, ended on a 2xx answer */
  progress?: ProgressReporter;
  token?: string;
  /** health endpoints answer outside the envelopes */
  plain?: { okStatuses: readonly number[] };
  /** routes answering a document (the OPDS feeds): its text is the result, errors stay the envelope */
  document?: { accept: string };
  /**
   * fields a success envelope of this route carries (`data`; a page's `page`, `pageSize`, `total`): an
   * answer without them is refused as kind `unknown` rather than resolved as missing data
   */
  expects?: readonly string[];
}

/** Options of one call, the optional last argument of every client method. */
export interface CallOptions {
  /** aborting it rejects the call with kind `'aborted'` (already aborted: nothing is sent) */
  signal?: AbortSignal | undefined;
  /**
   * milliseconds to wait for the whole answer (status, headers and body) before rejecting with kind
   * `'timeout'`; overrides the client's `timeoutMs` for this call. A positive finite number of at most
   * 2,147,483,647 (what `setTimeout` can wait), else the call rejects with a `RangeError`.
   */
  timeoutMs?: number | undefined;
}

/** How much of an upload's request body has been sent, in bytes. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Options of an upload call: those of every call, and a listener of the upload's progress. */
export interface UploadCallOptions extends CallOptions {
  /**
   * Called as the file goes out, with the bytes sent and the bytes to send (`loaded` grows within one
   * attempt, up to `loaded === total`); an upload the service accepted always ends with that report.
   * In a browser on the default fetch the upload goes through `XMLHttpRequest` (`xhr.upload.onprogress`;
   * `total` is then the multipart body, a little more than the file); a mini-program adapter reports
   * its platform's `UploadTask.onProgressUpdate`. Elsewhere (Node, a `fetch` of your own that ignores
   * `init.onUploadProgress`) only the end is reported, with the file's size as both numbers. A retry
   * after `onUnauthorized` sends the file again, so the reports start again from 0. An exception
   * thrown here does not stop the upload: it is rethrown apart, as an event listener's would be.
   */
  onProgress?: ((progress: UploadProgress) => void) | undefined;
}

export interface TransportOptions {
  baseUrl: string;
  fetch?: FetchLike | MiniProgramFetch | undefined;
  /** extra headers sent with every request */
  headers?: Record<string, string> | undefined;
  /** default timeout of each request, in milliseconds (none when undefined) */
  timeoutMs?: number | undefined;
}

export type Send = (spec: RequestSpec, call?: CallOptions) => Promise<Record<string, unknown>>;

/** One attempt's progress: what the fetch or platform reports, then the end. */
export interface ProgressReporter {
  /** a count from the fetch or the platform; repeated, backward or malformed counts are dropped */
  report(progress: UploadProgress): void;
  /** the end (`loaded === total`), unless the last report already said so */
  finish(): void;
}
