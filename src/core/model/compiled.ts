// What defineApi compiles a declaration into: the resolved fields, relations, types and API the service,
// the formats, the descriptions and the stores read.
import type { AddDeclaration, DisplayDeclaration, JsonSchema, LinkDeclaration, SearchDeclaration } from './declaration.js';

/**
 * A field of a resource type, resolved: its access, term (its name in the linked-data formats) and
 * property IRI filled in.
 *
 * @example
 * api.type('player').field('alias')!.term; // 'alternateName'
 */
export interface Field {
  readonly name: string;
  readonly title: string;
  readonly schema: JsonSchema;
  readonly required: boolean;
  readonly access: 'read-write' | 'write-only' | 'read-only';
  readonly derived: { readonly link: string } | undefined;
  readonly term: string;
  readonly iri: string;
  readonly iriValue: boolean;
  readonly input: 'text' | 'url' | 'search' | 'number' | 'hidden';
  /** The detail of a value that breaks the field's pattern or format. */
  readonly invalid: string | undefined;
}

/**
 * A relation, resolved: its target type found, its path and linked-data names filled in.
 *
 * @example
 * api.type('player').relation('friends')!.target.name; // 'player'
 */
export interface Relation {
  readonly name: string;
  readonly kind: 'to-many' | 'to-one';
  /** The type of the related items (resolved once every type is known). */
  readonly target: ResourceType;
  readonly title: string;
  /** What one member is called, in lower case (`friend`). */
  readonly member: string;
  readonly path: string;
  /** The field holding a to-one relation's target id. */
  readonly field: string | undefined;
  readonly add: AddDeclaration | undefined;
  readonly search: (SearchDeclaration & { readonly className: string }) | undefined;
  readonly labels: { readonly owner: string; readonly all: string };
  readonly iri: string;
  readonly reverse: string | undefined;
  readonly listClass: string | undefined;
  readonly description: string | undefined;
  /** The type whose items hold the relation. */
  readonly owner: ResourceType;
}

/**
 * A resource type of an API, compiled from its declaration.
 *
 * @example
 * const player = api.type('player');
 * player.itemUrl('https://x.test', 'bob'); // 'https://x.test/player/bob'
 */
export interface ResourceType {
  readonly api: Api;
  readonly name: string;
  readonly plural: string;
  readonly title: string;
  readonly description: string | undefined;
  /** The URI template, e.g. `/player/{id}`. */
  readonly path: string;
  /** The path before `/{id}`, e.g. `/player`. */
  readonly prefix: string;
  readonly idField: string;
  readonly fields: readonly Field[];
  /** The fields an item shows (all but write-only), in declaration order: the plain JSON object. */
  readonly readable: readonly Field[];
  /** The fields an item shows, in the order the linked-data formats write them. */
  readonly termOrder: readonly Field[];
  /** The fields a client writes (all but read-only and derived). */
  readonly writable: readonly Field[];
  readonly linkedData: { readonly class: string; readonly term: string };
  readonly links: readonly LinkDeclaration[];
  readonly relations: readonly Relation[];
  readonly display: DisplayDeclaration;
  readonly replaceTitle: string;
  readonly descriptions: { readonly item: string | undefined; readonly list: string | undefined };
  /** The JSON Schema of an item in its plain form (what PUT and PATCH results must satisfy). */
  readonly schema: JsonSchema;
  field(name: string): Field | undefined;
  relation(name: string): Relation | undefined;
  /** The writable field a body names by its alternate name, else undefined. */
  fieldByTerm(alternate: string): Field | undefined;
  itemUrl(baseUrl: string, id: string): string;
}

/**
 * An API, compiled: its types by name, and what the formats and descriptions share.
 *
 * @example
 * const api = defineApi(declaration);
 * api.type('player').plural; // 'players'
 */
export interface Api {
  readonly title: string;
  readonly version: string;
  readonly description: string | undefined;
  readonly license: { readonly name: string; readonly url?: string } | undefined;
  readonly vocabulary: { readonly prefix: string; readonly iri: string };
  readonly prefixes: Readonly<Record<string, string>>;
  /** The URL naming the API's JSON-LD context (see `ApiDeclaration.contextUrl`). */
  readonly contextUrl: string;
  readonly types: readonly ResourceType[];
  /** The type named `name`; a TypeError when there is none. */
  type(name: string): ResourceType;
  /** The type whose JSON:API type (plural) is `plural`, or undefined. */
  typeByPlural(plural: string): ResourceType | undefined;
}
