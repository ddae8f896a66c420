// `player-hypermedia render`: a player or a friends page, given as plain JSON, in any registered format.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Representation } from '../core/model/representation.js';
import { defaultRepresentations } from '../representations/index.js';
import { findRepresentation, render } from '../render/render.js';

const names = () => defaultRepresentations.map((r) => r.name).join('|');

/** A mistake in the command line: exit code 2, with a pointer to --help. */
export class UsageError extends Error {}

/**
 * The help text of `render`, listing the registered formats.
 *
 * @example
 * process.stdout.write(renderHelp());
 */
export function renderHelp(): string {
  return `Usage: player-hypermedia render <file.json | -> --as <format> [options]

Prints a representation of a player or a page of friends, exactly as the service would send it.

The input is plain JSON, from a file or standard input (-):
  a player:          {"playerId": "bob", "alias": "bobby", "displayName": "Bob Builder"}
  a page of friends: {"playerId": "alice", "page": 2, "total": 32, "friends": [{"playerId": "bob", "alias": "bobby"}]}
                     (add "search": "text" for a page of search results)

Options:
  --as <format>       ${names()} (a name or a media type; default json)
  --base-url <url>    base of the links (default https://api.example.com)
  --page-size <n>     page size the links are computed with (default 10)
  --pretty            indent JSON output
  -h, --help          show this help
`;
}

/**
 * The registered format with this name or media type; UsageError when there is none.
 *
 * @example
 * findFormat('application/hal+json').name; // 'hal'
 */
export function findFormat(wanted: string): Representation {
  try {
    return findRepresentation(wanted.toLowerCase());
  } catch {
    throw new UsageError(`unknown format "${wanted}"; known: ${names()}`);
  }
}

/**
 * Options of `renderDocument`: the format (name or media type), the base URL of the links, the page
 * size, and whether to indent JSON.
 *
 * @example
 * const options: RenderOptions = { as: 'hal', baseUrl: 'https://api.example.com', pageSize: 10 };
 */
export interface RenderOptions {
  as: string;
  baseUrl: string;
  pageSize: number;
  pretty?: boolean;
}

/**
 * Renders parsed JSON input (see `renderHelp`) in one format. Throws UsageError for an unknown format,
 * TypeError for input that is not a player or a page.
 *
 * @example
 * renderDocument({ playerId: 'bob', alias: 'bobby' }, { as: 'siren', baseUrl: 'https://x.test', pageSize: 10 });
 */
export function renderDocument(json: unknown, options: RenderOptions): string {
  const format = findFormat(options.as);
  return render(json as Parameters<typeof render>[0], format.name, { baseUrl: options.baseUrl, pageSize: options.pageSize, pretty: options.pretty === true }).body;
}

/**
 * Runs `render` with its command-line arguments and returns the text to print.
 *
 * @example
 * process.stdout.write(renderCommand(['player.json', '--as', 'hal']));
 */
export function renderCommand(args: string[]): string {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      as: { type: 'string', default: 'json' },
      'base-url': { type: 'string', default: 'https://api.example.com' },
      'page-size': { type: 'string', default: '10' },
      pretty: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return renderHelp();
  if (positionals.length !== 1) throw new UsageError('render takes exactly one input file (or - for standard input)');
  findFormat(values.as);
  const pageSize = Number(values['page-size']);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw new UsageError('--page-size must be an integer from 1 to 1000');
  const baseUrl = values['base-url'].replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) throw new UsageError('--base-url must be an absolute http(s) URL');
  const file = positionals[0]!;
  const text = readFileSync(file === '-' ? 0 : file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TypeError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const output = renderDocument(json, { as: values.as, baseUrl, pageSize, pretty: values.pretty });
  return output.endsWith('\n') ? output : output + '\n';
}
