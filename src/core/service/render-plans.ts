// The render plans of requests: what a format's query parameters ask of its rendering, planned once per query.
import type { RenderPlan, Representation } from '../model/representation.js';
import type { ResourceKind } from '../model/resource.js';
import type { ResourceType } from '../model/api.js';
import type { RequestTarget } from '../http/request-target.js';
import { keptPairs } from '../http/query-pairs.js';

/** The plan of a format without one, by the formats offered beside it: one object, not one per request. */
const plainPlans = new WeakMap<readonly Representation[], RenderPlan>();

function plainPlan(offered: readonly Representation[]): RenderPlan {
  let plan = plainPlans.get(offered);
  if (plan === undefined) plainPlans.set(offered, (plan = { formats: offered }));
  return plan;
}

/**
 * The plan of `representation` for `query`, with the formats offered beside it.
 *
 * @example
 * planOf(jsonApiRepresentation, offered, new URLSearchParams('include=friends'), 'item', playerType).embed; // ['friends']
 */
export function planOf(representation: Representation, offered: readonly Representation[], query: URLSearchParams, kind: ResourceKind, type: ResourceType): RenderPlan {
  const own = representation.plan?.(query, kind, type);
  return own === undefined ? plainPlan(offered) : { ...own, formats: offered };
}

/**
 * Plans already made, by format, formats offered, type, kind and the query parameters the format
 * reads: a plan depends on nothing else and is never changed once made (RenderPlan's members are
 * read-only), so requests with the same such parameters (none, whatever `page` or a client's own
 * cache-buster says) share one object instead of planning again. A format without `plan` reads none;
 * one with `plan` but without `readsParameter` reads them all. At most `KEPT_QUERIES` queries are kept
 * for each format, type and kind: a client inventing queries only costs a plan each, as before.
 */
const keptPlans = new WeakMap<Representation, WeakMap<readonly Representation[], WeakMap<ResourceType, Map<ResourceKind, Map<string, RenderPlan>>>>>();
const KEPT_QUERIES = 32;

/**
 * The plan of a request's query in `representation`, made once for each query that reads alike (see keptPlans).
 *
 * @example
 * keptPlan(jsonApiRepresentation, offered, 'item', playerType, requestTarget(url)!) === keptPlan(...same query...); // true
 */
export function keptPlan(representation: Representation, offered: readonly Representation[], kind: ResourceKind, type: ResourceType, target: RequestTarget): RenderPlan {
  if (representation.plan === undefined) return plainPlan(offered);
  let byOffered = keptPlans.get(representation);
  if (byOffered === undefined) keptPlans.set(representation, (byOffered = new WeakMap()));
  let byType = byOffered.get(offered);
  if (byType === undefined) byOffered.set(offered, (byType = new WeakMap()));
  let byKind = byType.get(type);
  if (byKind === undefined) byType.set(type, (byKind = new Map()));
  let byQuery = byKind.get(kind);
  if (byQuery === undefined) byKind.set(kind, (byQuery = new Map()));
  const reads = representation.readsParameter;
  const key = reads === undefined || target.search === '' ? target.search : keptPairs(target.search, (name) => reads.call(representation, name));
  let plan = byQuery.get(key);
  if (plan === undefined) {
    plan = planOf(representation, offered, target.searchParams, kind, type);
    if (byQuery.size >= KEPT_QUERIES) byQuery.clear();
    byQuery.set(key, plan);
  }
  return plan;
}
