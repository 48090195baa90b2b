// init, step 2 (probing): what the bank's OpenAPI file says, when it has one: the paths of the
// profile (under the file's first server URL) and the payment services and products of the path
// parameters' enums. The paths are candidates only: the bank is asked whether they answer.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { usage } from './ask.js';

/** A profile key of `paths`, e.g. consents. */
export type PathKey =
  | 'aspsps'
  | 'cities'
  | 'countries'
  | 'accounts'
  | 'consents'
  | 'payments'
  | 'signingBaskets'
  | 'directDebitCreate'
  | 'directDebitPayments';

export interface OpenApiFindings {
  paths: Partial<Record<PathKey, string>>;
  products?: string[];
  services?: string[];
}

const PATH_ENDINGS: [PathKey, RegExp][] = [
  ['aspsps', /^(.*\/aspsps)$/],
  ['cities', /^(.*\/cities)$/],
  ['countries', /^(.*\/countries)$/],
  ['accounts', /^(.*\/accounts)$/],
  ['consents', /^(.*\/consents)$/],
  // /{payment-service}/{payment-product}, or with a payment id and more after it.
  [
    'payments',
    /^(.*?)\/(\{[^}]*service[^}]*\}|payments|bulk-payments|periodic-payments)\/\{[^}]*product[^}]*\}(?:\/.*)?$/i,
  ],
  ['signingBaskets', /^(.*\/signing-baskets)$/],
  ['directDebitCreate', /^(.*\/sepa-direct-debit)$/],
  ['directDebitPayments', /^(.*\/iso\/payments)\/\{[^}]+\}$/],
];

type Operation = { parameters?: { name: string; schema?: { enum?: string[] } }[] };

/** Reads the OpenAPI file (a path relative to the working folder, or a URL); a file that cannot be read is a usage error. */
export async function readOpenApi(source: string, baseUrl: string): Promise<OpenApiFindings> {
  let text: string;
  try {
    text = /^https?:/.test(source)
      ? await (await fetch(source)).text()
      : readFileSync(resolve(process.cwd(), source), 'utf8');
  } catch (err) {
    usage(`--openapi: ${source} could not be read: ${(err as Error).message}`);
  }
  let doc: { paths?: Record<string, Record<string, Operation>>; servers?: { url: string }[] };
  try {
    doc = parseYaml(text!) ?? {};
  } catch (err) {
    usage(`--openapi: ${source} is neither YAML nor JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const server = doc!.servers?.[0]?.url;
  const prefix = server ? new URL(server, `${baseUrl}/`).pathname.replace(/^\/+|\/+$/g, '') : '';
  const join = (p: string) => [prefix, p.replace(/^\/+/, '')].filter(Boolean).join('/');
  const found: OpenApiFindings = { paths: {} };
  for (const [p, ops] of Object.entries(doc!.paths ?? {})) {
    for (const [key, re] of PATH_ENDINGS) {
      const m = re.exec(p);
      if (m && !found.paths[key] && join(m[1])) found.paths[key] = join(m[1]);
    }
    for (const op of Object.values(ops ?? {}))
      for (const prm of op?.parameters ?? []) {
        if (/payment-?product/i.test(prm.name) && prm.schema?.enum) found.products = prm.schema.enum;
        if (/payment-?service/i.test(prm.name) && prm.schema?.enum) found.services = prm.schema.enum;
      }
  }
  return found;
}
