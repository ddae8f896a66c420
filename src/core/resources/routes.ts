// The routes of an API: every URL its declarations imply, each answered by the generic handlers.
import type { Api, Relation, ResourceType } from '../model/api.js';
import type { Route } from '../service/router.js';
import { acceptedBodyTypes, acceptedPatchTypes } from './body.js';
import { deleteItem, getItem, putItem } from './item-routes.js';
import { patchItem } from './item-patch.js';
import { deleteLinkage, getLinkage, patchLinkage, postLinkage } from './linkage-routes.js';
import { deleteMember, getPage, postMember } from './list-routes.js';

/**
 * The path parameter naming a list's member in `{item}/{path}/{<member>Id}`: the relation's member
 * noun in camel case (`friendId`).
 *
 * @example
 * memberParameter(friends); // 'friendId'
 */
export function memberParameter(relation: Relation): string {
  return `${relation.member.replace(/ ([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Id`;
}

/** The route of an item: GET, PUT, PATCH, DELETE; OPTIONS advertises the patch formats (RFC 5789 section 3.1). */
function itemRoute(type: ResourceType): Route {
  return {
    path: type.path,
    methods: { GET: getItem(type), PUT: putItem(type), PATCH: patchItem(type), DELETE: deleteItem(type) },
    optionsFields: (config, route) => new Map(route.methods.PATCH ? [['accept-patch', acceptedPatchTypes(config.representations).join(', ')]] : []),
  };
}

/** The routes of a to-many relation: its list, its search, its members, its relationship URL. */
function listRoutes(relation: Relation): Route[] {
  const list = `${relation.owner.path}/${relation.path}`;
  const parameter = memberParameter(relation);
  const routes: Route[] = [
    {
      path: list,
      methods: relation.add ? { GET: getPage(relation, false), POST: postMember(relation) } : { GET: getPage(relation, false) },
      // Accept-Post names the body formats POST reads (W3C LDP section 7.1).
      ...(relation.add ? { optionsFields: (config) => new Map([['accept-post', acceptedBodyTypes(config.representations).join(', ')]]) } : {}),
    },
  ];
  if (relation.search) routes.push({ path: `${list}/search`, methods: { GET: getPage(relation, true) } });
  routes.push({ path: `${list}/{${parameter}}`, methods: { DELETE: deleteMember(relation, parameter) } });
  return routes;
}

/** The JSON:API relationship URL of a relation. */
function linkageRoute(relation: Relation): Route {
  const path = `${relation.owner.path}/relationships/${relation.name}`;
  if (relation.kind === 'to-one') return { path, methods: { GET: getLinkage(relation), PATCH: patchLinkage(relation) } };
  return { path, methods: { GET: getLinkage(relation), POST: postLinkage(relation), DELETE: deleteLinkage(relation), PATCH: patchLinkage(relation) } };
}

/**
 * Every route an API's declarations imply, in this order per type: the item, then for each to-many
 * relation its list, search and member routes, then every relation's relationship URL.
 *
 * @example
 * routesOf(playerApi).map((r) => r.path);
 * // ['/player/{id}', '/player/{id}/friends', '/player/{id}/friends/search', '/player/{id}/friends/{friendId}', '/player/{id}/relationships/friends']
 */
export function routesOf(api: Api): Route[] {
  const routes: Route[] = [];
  for (const type of api.types) {
    routes.push(itemRoute(type));
    for (const relation of type.relations) if (relation.kind === 'to-many') routes.push(...listRoutes(relation));
    for (const relation of type.relations) routes.push(linkageRoute(relation));
  }
  return routes;
}
