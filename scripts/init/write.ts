// init, step 4: writing. The profile (checked by the suite's own loader), its notes, and .env:
// mode 600 whether new or rewritten; rewritten with --force, every key init has no value for keeps
// the value it had (a pre-issued ACCESS_TOKEN among them), and every other key of the former file stays.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { ConfigError } from '../../harness/config/errors.js';
import { envFileOf, envFileValues, loadSettings } from '../../harness/config/user-settings.mjs';
import { loadProfile } from '../../harness/config/profile.js';
import type { Answers } from './ask.js';
import type { RequiredHeader } from './bank.js';
import type { Drafted } from './draft.js';
import type { AgentChoice } from './psu-agent.js';

/** One line of .env: a key and its value, or a comment. */
type Line = [key: string, value: string] | string;

/** The .env lines init writes. */
function envLines(a: Answers, authUrl: string, agent: AgentChoice, required: RequiredHeader[]): Line[] {
  const file = (f: string) => f && resolve(process.cwd(), f);
  return [
    '# Written by obg-conformance init. The process environment wins over this file.',
    ['TARGET_BASE_URL', a.baseUrl],
    ['TARGET_AUTH_URL', authUrl],
    ['TARGET_PROFILE', `profiles/${a.name}.json`],
    `# How the TPP authenticates: ${a.auth}${a.auth === 'mtls' ? ' (the client id alone at the token endpoint, RFC 8705)' : a.auth === 'none' ? ' (no credentials; a bank that takes no authentication: profile authentication "none")' : ''}.`,
    ['CLIENT_ID', a.clientId],
    ['CLIENT_SECRET', a.clientSecret],
    ['ACCESS_TOKEN', a.accessToken],
    ['TLS_CLIENT_CERT_FILE', file(a.tlsCert)],
    ['TLS_CLIENT_KEY_FILE', file(a.tlsKey)],
    ['TARGET_CA_FILE', file(a.caFile)],
    ['REDIRECT_URI', a.redirectUri],
    ['BICFI', a.bicFi],
    ['PSU_ID', a.psuId],
    ['PSU_CORPORATE_ID', a.psuCorporateId],
    ['SECOND_CLIENT_ID', a.secondClientId],
    ['SECOND_CLIENT_SECRET', a.secondClientSecret],
    '# The QSealC and key, for the feature "signing" (the draft claims it only with them).',
    ['TPP_SIGNING_CERT_FILE', file(a.signingCert)],
    ['TPP_SIGNING_KEY_FILE', file(a.signingKey)],
    ['TPP_TEST_PKI_DIR', file(a.testPkiDir)],
    ...required
      .filter((h) => h.fromEnv)
      .flatMap((h): Line[] => [
        `# Sent as the header ${h.name} on every call (profile requiredHeaders).`,
        [h.fromEnv!, ''],
      ]),
    ...(agent.psuAgent === 'manual'
      ? [
          '# The manual agent (sca.psuAgent "manual") listens here (host:port) for the PSU\'s return, unless REDIRECT_URI is a loopback http URI with a port.',
          ['PSU_CALLBACK_LISTEN', ''] as Line,
        ]
      : []),
    ...(agent.psuAgent === 'browser'
      ? [
          '# The browser agent (sca.psuAgent "browser"): Debian\'s chromium, and what it types on the bank\'s login page.',
          ['CHROMIUM_PATH', loadSettings().CHROMIUM_PATH] as Line,
          ...agent.loginKeys.map((k): Line => [k, '']),
        ]
      : []),
  ];
}

/** A value as .env holds it (dotenv): single-quoted, literal, when it has a space, a quote or a hash. */
const quoted = (v: string) => (/[\s#"'`]/.test(v) ? (v.includes("'") ? `"${v}"` : `'${v}'`) : v);

/** Writes .env: init's lines, each empty one keeping the former value, then the former file's other keys. */
export function writeEnv(envFile: string, lines: Line[]): string[] {
  const former: Record<string, string> = { ...envFileValues(envFile) };
  const kept: string[] = [];
  const out = lines.map((l) => {
    if (typeof l === 'string') return l;
    const [key, value] = l;
    if (!value && former[key]) kept.push(key);
    return `${key}=${quoted(value || former[key] || '')}`;
  });
  const mine = new Set(lines.filter((l): l is [string, string] => typeof l !== 'string').map(([k]) => k));
  const others = Object.keys(former).filter((k) => !mine.has(k));
  if (others.length) out.push('# Kept from the former .env.', ...others.map((k) => `${k}=${quoted(former[k])}`));
  writeFileSync(envFile, `${out.join('\n')}\n`, { mode: 0o600 });
  // The mode of a file that existed stays what it was on write: set it.
  chmodSync(envFile, 0o600);
  return [...kept, ...others];
}

/** The notes file: what was found, what was not (and how to claim it), what to review, the agent and the readings. */
function notesText(a: Answers, d: Drafted, agent: AgentChoice): string {
  const section = (title: string, lines: string[], lead?: string) =>
    lines.length ? [`## ${title}`, '', ...(lead ? [lead, ''] : []), ...lines, ''] : [];
  return [
    `# What obg-conformance init found at ${a.baseUrl} for ${a.name}`,
    '',
    'This profile is init\'s unreviewed draft ("draft": true): every run under it says so. Review each claim below, then remove "draft".',
    '',
    ...section('Found', d.found),
    ...section(
      'Not found, not claimed',
      d.notFound,
      'A requirement of a feature not claimed is reported "not claimed", never failed.',
    ),
    ...section('To review', d.review),
    ...section('The PSU agent', [
      `- \`sca.psuAgent\`: "${agent.psuAgent}": ${agent.reason}.`,
      ...(agent.loginKeys.length
        ? [
            `- \`sca.browser\`: the .env keys ${agent.loginKeys.join(', ')} hold what the browser agent types (a test PSU's login): fill them in .env.`,
          ]
        : []),
    ]),
    ...section(
      'Readings the profile can pin',
      d.readings,
      'Where the specification and Berlin Group differ, the bank follows one reading; the profile says which.',
    ),
  ].join('\n');
}

/** Writes the profile, its notes and .env; says what it wrote and what to do next. */
export function writeAll(a: Answers, d: Drafted, authUrl: string, agent: AgentChoice, required: RequiredHeader[]) {
  const cwd = process.cwd();
  const profileFile = resolve(cwd, 'profiles', `${a.name}.json`);
  const notesFile = resolve(cwd, 'profiles', `${a.name}.notes.md`);
  const envFile = envFileOf(cwd);
  mkdirSync(dirname(profileFile), { recursive: true });
  writeFileSync(profileFile, `${JSON.stringify(d.profile, null, 2)}\n`);
  try {
    loadProfile(profileFile);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    d.review.unshift(`- the draft does not validate yet: ${err.message}`);
  }
  writeFileSync(notesFile, notesText(a, d, agent));
  const kept = writeEnv(envFile, envLines(a, authUrl, agent, required));
  const say = (line: string) => console.log(`init: ${line}`);
  say(
    `wrote ${relative(cwd, envFile)} (mode 600${kept.length ? `; kept from the former file: ${kept.join(', ')}` : ''}), ${relative(cwd, profileFile)} and ${relative(cwd, notesFile)}`,
  );
  say(`claimed: ${d.profile.features.join(', ') || 'nothing'}`);
  if (d.profile.authentication === 'none')
    say(
      'authentication: none (the bank answered without Authorization): no token is fetched or sent, the checks of tokens are not claimed',
    );
  if (d.notFound.length) {
    say('not found, not claimed:');
    for (const n of d.notFound) console.log(`  ${n}`);
  }
  if (d.review.length) {
    say('to review:');
    for (const n of d.review) console.log(`  ${n}`);
  }
  say(
    `this profile is init's unreviewed draft: review it (${relative(cwd, notesFile)}), remove "draft", then: obg-conformance run`,
  );
}
