// What a user writes to declare an API: its resource types, their fields, terms, relations and operations.

/**
 * A JSON Schema (2020-12 keywords; the descriptions convert it for Swagger 2.0 and OpenAPI), loosely typed.
 *
 * @example
 * const alias: JsonSchema = { type: 'string', minLength: 1, maxLength: 64 };
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

/**
 * One field of a resource type. `name` is its name in the plain JSON representation, in request bodies
 * and in the store; `term` its name in the linked-data style formats (JSON-LD, HAL, Siren,
 * Collection+JSON, JSON:API: the term of the JSON-LD context, the alternate field name), `iri` the
 * property it stands for (a compact IRI of the API's prefixes).
 *
 * - `access`: `read-write` (default), `write-only` (given by clients and stored, never shown: a picture
 *   URL the avatar redirects to), or `read-only` (shown, never written by clients).
 * - `derived`: a read-only field whose value is the href of one of the item's links (`{ link: 'avatar' }`).
 * - `input`: the HTML5 input type of a form field (default `url` for `format: uri`, `number` for an
 *   integer or number, else `text`).
 *
 * @example
 * const alias: FieldDeclaration = { name: 'alias', title: 'Alias', required: true,
 *   schema: { type: 'string', minLength: 1, maxLength: 64 }, term: 'alternateName', iri: 'schema:alternateName' };
 */
export interface FieldDeclaration {
  readonly name: string;
  readonly title: string;
  readonly schema: JsonSchema;
  readonly required?: boolean;
  readonly access?: 'read-write' | 'write-only' | 'read-only';
  readonly derived?: { readonly link: string };
  readonly term?: string;
  /** Compact IRI of the property (default `<vocabulary prefix>:<term>`). */
  readonly iri?: string;
  /** True when the value is an IRI (JSON-LD `"@type": "@id"`). */
  readonly iriValue?: boolean;
  readonly input?: 'text' | 'url' | 'search' | 'number' | 'hidden';
  /** The detail of an error for a value that breaks the `pattern` or `format` (default: the validator's message). */
  readonly invalid?: string;
}

/**
 * A link every item of a type carries to a resource the API serves outside its declared types (a
 * player's avatar image): `{url}/{path}`.
 *
 * @example
 * const avatar: LinkDeclaration = { rel: 'avatar', path: 'avatar.png', type: 'image/png', title: 'Avatar' };
 */
export interface LinkDeclaration {
  readonly rel: string;
  readonly path: string;
  readonly type?: string;
  /** A label for formats that show one (Collection+JSON's prompt). */
  readonly title: string;
}

/**
 * Adding to a to-many relation by POST on its list: creating a new member from the `fields` given
 * (`create`), and/or adding an existing one named by id or URL (`reference`).
 *
 * @example
 * const add: AddDeclaration = { name: 'add-friend', title: 'Add a friend', fields: ['displayName', 'alias', 'image'], create: true, reference: true };
 */
export interface AddDeclaration {
  /** The operation's name (Siren action, HTML form class; HAL-FORMS template `addFriend`). */
  readonly name: string;
  readonly title: string;
  /** The member fields a form offers, by plain name, in the order shown. */
  readonly fields: readonly string[];
  readonly create?: boolean;
  readonly reference?: boolean;
}

/**
 * Searching a to-many relation: members whose `fields` contain the text, case-insensitively, paged.
 *
 * @example
 * const search: SearchDeclaration = { title: 'Search friends', prompt: 'Text in alias or name', fields: ['alias', 'displayName'] };
 */
export interface SearchDeclaration {
  readonly title: string;
  /** The label of the search text. */
  readonly prompt: string;
  readonly fields: readonly string[];
  /** What the search answers are called in Siren's class (default `search-results`). */
  readonly className?: string;
}

/**
 * A relation of a resource type to items of another (or the same) type.
 *
 * - `to-many`: an ordered, paged list at `{url}/{path}` (GET pages, POST to add, DELETE
 *   `{url}/{path}/{memberId}` to remove), searchable when `search` is given; JSON:API relationship URL
 *   `{url}/relationships/{name}`.
 * - `to-one`: the id of one item of `target`, held in the field `field` (null or absent: none); a link
 *   to it, and a JSON:API relationship.
 *
 * `linkedData`: the IRI of the property (default `<vocabulary>:<name>`), the term of its inverse
 * (JSON-LD `@reverse`, used on a list to name its owner), and the class of the list (a Hydra
 * Collection subclass the ApiDocumentation describes).
 *
 * @example
 * const friends: RelationDeclaration = { name: 'friends', kind: 'to-many', target: 'player', title: 'Friends' };
 */
export interface RelationDeclaration {
  readonly name: string;
  readonly kind: 'to-many' | 'to-one';
  readonly target: string;
  /** A label of the relation's link (Collection+JSON prompt). */
  readonly title: string;
  /**
   * What one member is called, in lower case (`friend`): messages ("is not a friend of"), operation
   * ids of the descriptions (`addFriend`), the path parameter of a member (`{friendId}`). Default: the
   * target type's title in lower case.
   */
  readonly member?: string;
  readonly path?: string;
  readonly field?: string;
  readonly add?: AddDeclaration;
  readonly search?: SearchDeclaration;
  /** Labels of a list's links: to its owner (`up`), to the whole list from a search (`collection`). */
  readonly labels?: { readonly owner?: string; readonly all?: string };
  readonly linkedData?: { readonly iri?: string; readonly reverse?: string; readonly listClass?: string };
  readonly description?: string;
}

/**
 * How people see an item (HTML): the fields whose first present value is its title, a handle shown
 * beside it, and a picture.
 *
 * @example
 * const display: DisplayDeclaration = { title: ['displayName', 'alias'], handle: 'alias', picture: 'profilePhotoUrl' };
 */
export interface DisplayDeclaration {
  readonly title: readonly string[];
  readonly handle?: string;
  readonly picture?: string;
}

/**
 * A resource type: its name (Siren class, HAL embedded key; `plural` is the JSON:API type), its URI
 * template (`/player/{id}`: one literal segment and the id), the field holding the id, its fields,
 * its linked-data class, its links and relations, and how people see it.
 *
 * @example
 * const player: TypeDeclaration = { name: 'player', plural: 'players', title: 'Player', path: '/player/{id}',
 *   id: 'playerId', fields: [...], linkedData: { class: 'schema:Person', term: 'Person' } };
 */
export interface TypeDeclaration {
  readonly name: string;
  readonly plural: string;
  readonly title: string;
  readonly description?: string;
  readonly path: string;
  readonly id: string;
  readonly fields: readonly FieldDeclaration[];
  /** The order the linked-data formats write the readable fields in, by plain name; fields it leaves out follow in `fields` order (default: `fields` order). */
  readonly termOrder?: readonly string[];
  readonly linkedData: { readonly class: string; readonly term: string };
  readonly links?: readonly LinkDeclaration[];
  readonly relations?: readonly RelationDeclaration[];
  readonly display: DisplayDeclaration;
  /** The title of replacing an item (PUT; the HAL-FORMS `default` template of an item). */
  readonly replaceTitle?: string;
  /** Descriptions for the Hydra documentation and Swagger/OpenAPI. */
  readonly descriptions?: { readonly item?: string; readonly list?: string };
}

/**
 * An API: its title, version and description (Swagger/OpenAPI `info`), the namespace of its own
 * terms (`vocabulary`: the HAL curie, the JSON-LD prefix, Siren's relation IRIs), other prefixes its
 * terms use, and its resource types.
 *
 * @example
 * const api = defineApi({ title: 'Teams', version: '1.0.0', vocabulary: { prefix: 'tm', iri: 'https://example.com/vocab#' },
 *   prefixes: { schema: 'https://schema.org/' }, types: [team, player] });
 */
export interface ApiDeclaration {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  readonly license?: { readonly name: string; readonly url?: string };
  readonly vocabulary: { readonly prefix: string; readonly iri: string };
  readonly prefixes?: Readonly<Record<string, string>>;
  /**
   * The URL that names the API's JSON-LD context (default: `context.jsonld` beside the vocabulary,
   * `https://example.com/vocab#` giving `https://example.com/context.jsonld`). Documents carry the
   * context inline; a request body may name it by this URL, and nothing is fetched.
   */
  readonly contextUrl?: string;
  readonly types: readonly TypeDeclaration[];
}
