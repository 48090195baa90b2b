// `obg-conformance init`: drafts a profile and .env from what the bank answers, in four steps
// (scripts/init/): asking (ask.ts: flags or prompts), probing (oauth.ts: the OAuth2 endpoints,
// published or answering; areas.ts: which areas answer under which path layout; openapi.ts: the
// bank's OpenAPI file; consent.ts: what one consent offers; psu-agent.ts: the authorise page),
// drafting (draft.ts, readings.ts: only what answered is claimed, the rest listed "not found,
// not claimed" with the key that claims it) and writing (write.ts). Exit 2 on a usage error,
// 3 when the bank answered on no path tried.
import { askAll, askYesNo } from './init/ask.js';
import { AREA_KEYS, AREAS, findAreas } from './init/areas.js';
import { findAuthentication } from './init/authentication.js';
import { Bank, Unreachable } from './init/bank.js';
import { probeConsent } from './init/consent.js';
import { draftProfile, readReference } from './init/draft.js';
import { findOAuth } from './init/oauth.js';
import { readOpenApi } from './init/openapi.js';
import { choosePsuAgent } from './init/psu-agent.js';
import { writeAll } from './init/write.js';

const say = (line: string) => console.log(`init: ${line}`);

const answers = await askAll(process.argv.slice(2));
const bank = new Bank(answers, readReference().psuContext);
try {
  const openapi = answers.openapi ? await readOpenApi(answers.openapi, answers.baseUrl) : undefined;
  if (openapi)
    say(
      `${answers.openapi}: ${Object.keys(openapi.paths).length} of the profile's paths named (each asked of the bank)`,
    );

  const oauth = await findOAuth(bank);
  if (oauth.found) bank.tokenUrl = oauth.tokenUrl;
  say(`OAuth2: token endpoint ${oauth.tokenUrl}, authorise endpoint ${oauth.authorizeUrl}: ${oauth.from}`);

  const areas = await findAreas(bank, openapi);
  for (const area of AREAS) {
    const f = areas.areas[area];
    say(
      `${area}: ${
        f.paths
          ? `answers at ${Object.values(f.paths)
              .map((p) => `/${p}`)
              .join(', ')} (${f.layout})`
          : 'not found'
      }`,
    );
  }
  if (AREAS.every((a) => !areas.areas[a].paths)) {
    const lines = AREAS.map(
      (a) => `  ${a} (${AREA_KEYS[a].map((k) => `paths.${k}`).join(', ')}): ${areas.areas[a].tried.join('; ')}`,
    );
    console.error(
      `init: the bank answered on no path tried (each with a 404, an HTML page or no answer), so nothing can be drafted:\n${lines.join('\n')}`,
    );
    if (bank.tokenProblem) console.error(`init: and no application token: ${bank.tokenProblem}`);
    if (answers.auth === 'none')
      console.error(
        'init: and no credentials were given (--auth=none): a bank that refuses calls without Authorization needs --client-id and --client-secret, or --access-token',
      );
    console.error(`hint: check --base-url (${answers.baseUrl}); each line names the profile keys that set its paths`);
    process.exit(3);
  }

  // A bank that answers without Authorization, where no token is in use: authentication "none".
  const authentication = await findAuthentication(bank, areas, !!oauth.tokenFound);
  if (authentication.mode === 'none')
    authentication.mode = (await askYesNo(
      answers,
      `init: the bank answered without Authorization (${authentication.seen}): draft authentication "none" (no token, the checks of tokens not claimed)?`,
      true,
    ))
      ? 'none'
      : 'bearer';
  say(
    authentication.mode === 'none'
      ? `authentication: none: ${authentication.seen}; the draft sends no token (profile authentication "none")`
      : `authentication: bearer tokens (${authentication.seen})`,
  );

  let detailProducts: string[] | undefined;
  const aspsps = areas.areas.directory.paths?.aspsps;
  if (aspsps && answers.bicFi) {
    const res = await bank.call('GET', `${aspsps}/${answers.bicFi}`, { scope: 'aspspinformation' });
    detailProducts = (res.json as { globalPaymentProducts?: string[] } | undefined)?.globalPaymentProducts;
    if (detailProducts?.length)
      say(`ASPSP detail of ${answers.bicFi}: globalPaymentProducts ${detailProducts.join(', ')}`);
  }

  const consents = areas.areas.consents.paths?.consents;
  const consent =
    answers.probeConsent && consents
      ? await probeConsent(bank, consents, areas.areas.accounts.paths?.accounts)
      : undefined;
  if (consent)
    say(
      `one consent: SCA methods ${consent.methods.join(', ') || 'none'}; approaches ${consent.approaches.join(', ') || 'none'}${consent.accounts ? `; ${consent.accounts.length} account(s) shown` : ''}${consent.problem ? `; stopped: ${consent.problem}` : ''}`,
    );

  const agent = await choosePsuAgent(
    answers,
    oauth.authorizeUrl,
    { url: consent?.authorizeUrl, from: consent?.authorizeFrom },
    bank.psuContext,
  );
  say(`sca.psuAgent ${agent.psuAgent}: ${agent.reason}`);
  for (const h of bank.required)
    say(
      `requiredHeaders: ${h.name} proposed (${h.generated ? `generated ${h.generated}` : `from .env ${h.fromEnv}`}): ${h.seen}`,
    );

  const drafted = draftProfile({
    answers,
    oauth,
    areas,
    openapi,
    detailProducts,
    consent,
    agent,
    required: bank.required,
    tokenProblem: bank.tokenProblem,
    authentication,
  });
  writeAll(answers, drafted, oauth.authUrl, agent, bank.required);
} catch (err) {
  if (!(err instanceof Unreachable)) throw err;
  console.error(`init: the bank does not answer: ${err.message}`);
  console.error(
    `hint: check --base-url (${answers.baseUrl}), the network and the TLS settings (--ca-file, --tls-client-cert)`,
  );
  process.exitCode = 3;
} finally {
  await bank.close();
}
