// The context object of one request: what createPlayerService hands its route handlers.
import type { ResourceType } from '../model/api.js';
import type { BodySource } from '../http/request-body.js';
import type { RequestHead } from '../http/request-head.js';
import type { Representation } from '../model/representation.js';
import type { RequestContext } from './context.js';
import type { Principal } from './credentials.js';
import type { ServiceConfig } from './config.js';
import { API_VERSION_FIELD, type ApiVersion } from './versioning.js';
import { RequestTarget, requestTarget } from '../http/request-target.js';

/**
 * The path and query of a request's URL, or of the base URL when the request's is not a valid http(s)
 * URL (the context of the 400 that answers it).
 *
 * @example
 * targetOf('http://x.test/player/alice', 'http://x.test').pathname; // '/player/alice'
 */
export function targetOf(href: string, baseUrl: string): RequestTarget {
  return requestTarget(href) ?? requestTarget(baseUrl) ?? new RequestTarget(baseUrl, '/', '');
}

/**
 * The context of one request; the standard Request is built on first use when only a head was given.
 *
 * @example
 * const ctx = new Context(head, () => request, config, requestTarget(head.url)!);
 */
export class Context implements RequestContext {
  readonly head: RequestHead;
  readonly config: ServiceConfig;
  readonly target: RequestTarget;
  params: Record<string, string> = {};
  baseUrl: string;
  responseHeaders: Map<string, string>;
  representation: Representation | undefined = undefined;
  negotiated = false;
  principal: Principal | undefined = undefined;
  apiVersion: ApiVersion | undefined = undefined;
  versionPrefix: string | undefined = undefined;
  variant: string | undefined = undefined;
  selected: RequestContext['selected'] = undefined;
  memoized = false;
  type: ResourceType | undefined = undefined;
  item: string | undefined = undefined;
  unchanged = false;
  /** The template of the route that answered (e.g. `/player/{id}`): how the answer memo tells kinds of answers apart. */
  route = '';
  #request: Request | undefined;
  readonly #materialize: () => Request;

  constructor(head: RequestHead, materialize: () => Request, config: ServiceConfig, target: RequestTarget) {
    this.head = head;
    this.#materialize = materialize;
    this.config = config;
    this.target = target;
    this.baseUrl = config.baseUrl;
    this.responseHeaders = new Map<string, string>().set(API_VERSION_FIELD, config.versioning.latest.label);
  }

  get url(): URL {
    return this.target.url;
  }

  get request(): Request {
    return (this.#request ??= this.#materialize());
  }

  get bodySource(): BodySource {
    const head = this.head;
    if (this.#request) return this.#request;
    if (head.bodyBytes) return { headers: head.headers, body: null, readUpTo: head.bodyBytes };
    return head.bodyStream ? { headers: head.headers, body: head.bodyStream() } : this.request;
  }
}
