import fc from 'fast-check';
import type { Target } from '../config/target.js';
import { noteRefusal } from '../expect.js';
import type { ApiClient } from '../http/client.js';
import { block } from '../http/broken.js';
import type { ApiResponse } from '../http/response.js';
import { schemaRegistry } from '../values/schemas.js';
import { fullScope } from '../auth/tokens.js';
import { nearMiss, nearMissArb, outsideText, type NearMiss } from './robustness-cases.js';

/*
 * The token endpoint's form outside its forms (endpoint section G; RFC 6749 4.4, 5.2): a client
 * credentials request, the one every run makes for its application tokens, with one to three of
 * its fields (and the code grant's code and redirect_uri) left out, empty, a near miss, a text
 * outside the minimum set, sent twice (RFC 6749 3.2: "parameters MUST NOT be included more than
 * once"), or with an unknown one; or the whole form in another content type or malformed. Judged
 * as the hand-written checks judge the endpoint (tests/oauth/token.spec.ts): never a 5xx; a
 * refusal is a 400 or 401 whose body is an RFC 6749 error (schema oauth/error: `error` from its
 * list) and carries no access_token; an acceptance is a token response (oauth/token-response).
 */

export const FIELDS = ['grant_type', 'client_id', 'client_secret', 'scope', 'code', 'redirect_uri'] as const;
type Field = (typeof FIELDS)[number];

export type FieldChange =
  | { field: Field; kind: 'missing' | 'empty' | 'duplicated' }
  | { field: Field; kind: 'near-miss'; how: NearMiss }
  | { field: Field; kind: 'text'; value: string };

export type TokenCase =
  { fields: FieldChange[] } | { unknown: string } | { contentType: string } | { malformed: string };

const fieldChange: fc.Arbitrary<FieldChange> = fc.oneof(
  fc.record({
    field: fc.constantFrom(...FIELDS),
    kind: fc.constantFrom('missing' as const, 'empty' as const, 'duplicated' as const),
  }),
  fc.record({ field: fc.constantFrom(...FIELDS), kind: fc.constant('near-miss' as const), how: nearMissArb }),
  fc.record({
    field: fc.constantFrom(...FIELDS),
    kind: fc.constant('text' as const),
    value: outsideText().map((t) => t.value),
  }),
);

export const tokenCases: fc.Arbitrary<TokenCase> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ fields: fc.array(fieldChange, { minLength: 1, maxLength: 3 }) }) },
  fc.record({ unknown: fc.constantFrom('foo', 'access_token', 'refresh_token', 'response_type', 'é') }),
  fc.record({
    contentType: fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', ''),
  }),
  fc.record({ malformed: fc.constantFrom('%zz=%', '&&&=', 'grant_type', '=client_credentials', '\u0000') }),
);

/** The cases tried first: each field left out, and each sent twice. */
export const tokenExamples: TokenCase[] = FIELDS.flatMap((field) =>
  (['missing', 'duplicated'] as const).map((kind) => ({ fields: [{ field, kind }] })),
);

/** The valid client credentials form (as harness/auth/tokens.ts sends it), with the code grant's fields for changes to fill. */
function validForm(target: Target): [string, string][] {
  return [
    ['grant_type', 'client_credentials'],
    ['client_id', target.clientId],
    ...(target.clientSecret ? [['client_secret', target.clientSecret] as [string, string]] : []),
    ['scope', fullScope(target, 'accountinformation')],
  ];
}

const FILL: Record<Field, string> = {
  grant_type: 'client_credentials',
  client_id: 'client',
  client_secret: 'secret',
  scope: 'accountinformation',
  code: 'code-0000',
  redirect_uri: 'https://tpp.example/callback',
};

/** The case as one line, without the client's secret. */
export function describeTokenCase(c: TokenCase): string {
  if ('unknown' in c) return `an unknown parameter ${JSON.stringify(c.unknown)}`;
  if ('contentType' in c) return `Content-Type ${JSON.stringify(c.contentType)}`;
  if ('malformed' in c) return `the body ${JSON.stringify(c.malformed)}`;
  return c.fields
    .map((f) =>
      f.kind === 'near-miss'
        ? `${f.field} a near miss (${f.how})`
        : f.kind === 'text'
          ? `${f.field} = ${JSON.stringify(f.value.slice(0, 40))}`
          : `${f.field} ${f.kind}`,
    )
    .join('; ');
}

function bodyOf(target: Target, c: TokenCase): { raw: string; contentType: string } {
  const form = validForm(target);
  const urlencoded = 'application/x-www-form-urlencoded';
  if ('malformed' in c) return { raw: c.malformed, contentType: urlencoded };
  if ('contentType' in c) return { raw: new URLSearchParams(form).toString(), contentType: c.contentType };
  if ('unknown' in c)
    return { raw: new URLSearchParams([...form, [c.unknown, 'x']]).toString(), contentType: urlencoded };
  let pairs = form;
  for (const f of c.fields) {
    const was = pairs.find(([k]) => k === f.field)?.[1] ?? FILL[f.field];
    const rest = pairs.filter(([k]) => k !== f.field);
    pairs =
      f.kind === 'missing'
        ? rest
        : f.kind === 'empty'
          ? [...rest, [f.field, '']]
          : f.kind === 'duplicated'
            ? [...rest, [f.field, was], [f.field, was]]
            : f.kind === 'near-miss'
              ? [...rest, [f.field, nearMiss(was, f.how)]]
              : f.kind === 'text'
                ? [...rest, [f.field, f.value]]
                : rest;
  }
  return { raw: new URLSearchParams(pairs).toString(), contentType: urlencoded };
}

/** The property's check: the valid form first (accepted, else blocked), then each case judged. */
export function tokenCheck(api: ApiClient, target: Target) {
  let controlled = false;
  const post = (raw: string, contentType: string): Promise<ApiResponse> =>
    api.post(target.tokenUrl, { noAuth: true, raw, headers: { 'Content-Type': contentType || null }, allow5xx: true });
  return async (c: TokenCase): Promise<void> => {
    if (!controlled) {
      const valid = await post(new URLSearchParams(validForm(target)).toString(), 'application/x-www-form-urlencoded');
      if (valid.status < 200 || valid.status >= 300)
        block('oauth.token.exchange', 'the valid client credentials form accepted', valid.describe());
      controlled = true;
    }
    const { raw, contentType } = bodyOf(target, c);
    const res = await post(raw, contentType);
    const what = `the token endpoint with ${describeTokenCase(c)}`;
    if (res.status >= 500)
      throw new Error(`${what}: expected no server error (an RFC 6749 error or a token); got ${res.describe()}`);
    const body = res.body as { access_token?: unknown } | undefined;
    if (res.status >= 200 && res.status < 300) {
      const problems = schemaRegistry().check('oauth/token-response', res.body);
      if (problems.length)
        throw new Error(
          `${what}: accepted, the answer must be a token response: ${problems[0].path}: ${problems[0].message}`,
        );
      return;
    }
    const problems = schemaRegistry().check('oauth/error', res.body);
    const held = (res.status === 400 || res.status === 401) && !problems.length && body?.access_token === undefined;
    noteRefusal(res, held);
    if (!held)
      throw new Error(
        `${what}: a refusal is a 400 or 401 whose JSON body is an RFC 6749 error (error: invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope) issuing no access_token; got ${res.describe()}${problems.length ? `: ${problems[0].path}: ${problems[0].message}` : ''}`,
      );
  };
}

/*
 * The authorise request's query outside its forms (endpoint section F; RFC 6749 4.1.1, 4.1.2.1):
 * the TPP's authorise URL of a started redirect authorisation with one to three of response_type,
 * client_id, redirect_uri, scope, state and code_challenge left out, empty, a near miss, a text
 * outside the minimum set or sent twice. Judged on the bank's own answer, read without a PSU as
 * the hand-written refusals read it (harness/sca/authorise-answer.ts): never a 5xx, no code issued
 * without the PSU, nothing sent to a redirect_uri of another origin; a refusal (an error page or a
 * redirect carrying error) or the bank's page both hold.
 */

export const QUERY = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge'] as const;
type Param = (typeof QUERY)[number];

export type QueryChange =
  | { param: Param; kind: 'missing' | 'empty' | 'duplicated' }
  | { param: Param; kind: 'near-miss'; how: NearMiss }
  | { param: Param; kind: 'text'; value: string };

export const authoriseCases: fc.Arbitrary<QueryChange[]> = fc.array(
  fc.oneof(
    fc.record({
      param: fc.constantFrom(...QUERY),
      kind: fc.constantFrom('missing' as const, 'empty' as const, 'duplicated' as const),
    }),
    fc.record({ param: fc.constantFrom(...QUERY), kind: fc.constant('near-miss' as const), how: nearMissArb }),
    fc.record({
      param: fc.constantFrom(...QUERY),
      kind: fc.constant('text' as const),
      value: outsideText().map((t) => t.value),
    }),
  ),
  { minLength: 1, maxLength: 3 },
);

/** The cases tried first: each parameter left out, sent twice, and with a Latin-1 text. */
export const authoriseExamples: QueryChange[][] = QUERY.flatMap((param) => [
  [{ param, kind: 'missing' as const }],
  [{ param, kind: 'duplicated' as const }],
  [{ param, kind: 'text' as const, value: 'Müller é' }],
]);

/** A code_challenge as RFC 7636 has it (43 characters of the unreserved set), for near misses and duplicates. */
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** The case as one line. */
export const describeAuthoriseCase = (c: QueryChange[]) =>
  c
    .map((f) =>
      f.kind === 'near-miss'
        ? `${f.param} a near miss (${f.how})`
        : f.kind === 'text'
          ? `${f.param} = ${JSON.stringify(f.value.slice(0, 40))}`
          : `${f.param} ${f.kind}`,
    )
    .join('; ');

/** The authorise URL with the case's changes, and the redirect_uri it names if that is of another origin than the valid one's. */
export function changedAuthorise(valid: string, c: QueryChange[]): { url: string; untrusted?: string } {
  const u = new URL(valid);
  let untrusted: string | undefined;
  for (const f of c) {
    const was = u.searchParams.get(f.param) ?? (f.param === 'code_challenge' ? CHALLENGE : '');
    if (f.kind === 'missing') u.searchParams.delete(f.param);
    else if (f.kind === 'empty') u.searchParams.set(f.param, '');
    else if (f.kind === 'duplicated') {
      u.searchParams.set(f.param, was);
      u.searchParams.append(f.param, was);
    } else {
      const value = 'how' in f ? nearMiss(was, f.how) : 'value' in f ? f.value : was;
      u.searchParams.set(f.param, value);
      if (f.param === 'redirect_uri') untrusted = otherOrigin(was, value) ? value : undefined;
    }
  }
  return { url: u.toString(), untrusted };
}

function otherOrigin(valid: string, value: string): boolean {
  try {
    return new URL(value).origin !== new URL(valid).origin;
  } catch {
    return false;
  }
}
