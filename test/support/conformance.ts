// Test helpers: the published schemas of ../shared/conformance (absent outside CI), compiled with ajv-draft-04.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AjvModule from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';

// Both are CommonJS with a `default` member; under NodeNext the default import is module.exports.
const Ajv = AjvModule.default;
type Ajv = InstanceType<typeof Ajv>;
const addFormats = addFormatsModule.default;

/** The repository root (this file is test/support/conformance.ts). */
export const REPO_ROOT = resolve(new URL('../..', import.meta.url).pathname);
/**
 * The main checkout: the repository root itself, or, in a git worktree (`.git` is a file naming
 * `<main>/.git/worktrees/<name>`), the checkout the worktree belongs to.
 */
function mainCheckout(): string {
  const dotGit = join(REPO_ROOT, '.git');
  if (!existsSync(dotGit) || !statSync(dotGit).isFile()) return REPO_ROOT;
  const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
  return gitdir ? resolve(REPO_ROOT, gitdir, '../../..') : REPO_ROOT;
}

/** Where the conformance material lives: `../shared/conformance` beside the repository, as in CI. */
export const CONFORMANCE_DIR = [REPO_ROOT, mainCheckout()]
  .map((root) => resolve(root, '../shared/conformance'))
  .find((dir) => existsSync(dir)) ?? resolve(REPO_ROOT, '../shared/conformance');
/** Whether the conformance material is there; only the published-schema checks are skipped without it. */
export const HAS_CONFORMANCE = existsSync(CONFORMANCE_DIR);

export type Check = (document: unknown) => string[];

function compile(build: (ajv: Ajv) => void, id: string): Check {
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  build(ajv);
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`schema ${id} is not loaded`);
  return (document) => (validate(document) ? [] : (validate.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath || '/'} ${e.message}`));
}

/** Adds every hyperschema.org file (core_link.json as http://hyperschema.org/core/link, ...). */
function addHyperschema(ajv: Ajv): void {
  const dir = join(CONFORMANCE_DIR, 'schemas/hyperschema');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const [group, ...rest] = file.slice(0, -'.json'.length).split('_');
    ajv.addSchema(JSON.parse(readFileSync(join(dir, file), 'utf8')), `http://hyperschema.org/${group}/${rest.join('_')}`);
  }
}

/** A validator of the hyperschema.org media-type schema `name` (`hal`, `collection-json`, `siren`). */
export function hyperschema(name: string): Check {
  return compile(addHyperschema, `http://hyperschema.org/mediatypes/${name}`);
}

/** A validator of a schema file under conformance/schemas (e.g. `collection-json.schema.json`). */
export function publishedSchema(file: string): Check {
  const schema = JSON.parse(readFileSync(join(CONFORMANCE_DIR, 'schemas', file), 'utf8'));
  return compile((ajv) => ajv.addSchema(schema, file), file);
}
