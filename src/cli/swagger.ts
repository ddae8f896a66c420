// `player-hypermedia swagger`: prints the Swagger 2.0 description of the service.
import { parseArgs } from 'node:util';
import { buildSwagger } from '../player/swagger.js';

/** The help text of `swagger`. */
export const SWAGGER_HELP = `Usage: player-hypermedia swagger [options]

Prints the Swagger 2.0 description (the document GET /swagger.json serves) as JSON.

Options:
  --base-url <url>     where the API is served (default $BASE_URL or https://api.example.com)
  --backend-url <url>  add the gateway extension forwarding GET /player/{id} there (default $BACKEND_URL)
  --gateway <name>     the extension's name, x-<name>-integration (default amazon-apigateway)
  -h, --help           show this help
`;

/**
 * Runs `swagger` with its command-line arguments and returns the JSON to print.
 *
 * @example
 * process.stdout.write(swaggerCommand(['--base-url', 'https://api.example.com'], process.env));
 */
export function swaggerCommand(args: string[], env: NodeJS.ProcessEnv): string {
  const { values } = parseArgs({
    args,
    options: {
      'base-url': { type: 'string' },
      'backend-url': { type: 'string' },
      gateway: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return SWAGGER_HELP;
  const backendUrl = values['backend-url'] ?? (env.BACKEND_URL || undefined);
  const options = { baseUrl: values['base-url'] ?? env.BASE_URL ?? 'https://api.example.com', ...(backendUrl ? { backendUrl } : {}) };
  const doc = buildSwagger(values.gateway ? { ...options, gateway: values.gateway } : options);
  return JSON.stringify(doc, null, 2) + '\n';
}
