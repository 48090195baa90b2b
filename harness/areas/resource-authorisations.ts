import { prerequisite } from '../http/broken.js';
import type { HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import type { ScaDriver } from '../sca/driver.js';
import { because, expect, test } from '../test.js';
import type { AuthorisationsClient } from './authorisations.js';
import { firstCancellationAuthorised, firstClaimed, label } from './payments.js';
import type { BasketsClient } from './signing-baskets.js';

/*
 * The authorisation flows of endpoint section F on every resource they name ("The operations use
 * {base_url}/<resourceBasePath> for consent, payment or basket"), and a cancellation's: a rule of
 * an authorisation is judged on each resource the profile claims, not on the one a test happens
 * to use.
 */

/** A resource whose authorisations section F describes. */
export type Resource = 'consent' | 'payment' | 'cancellation' | 'basket';

/** The requirement that judges each resource's create authorisation (the root cause of a later step's block). */
export const CREATE_ROOT: Record<Resource, string> = {
  consent: 'authorisations.create.response',
  payment: 'payments.authorisations.create',
  cancellation: 'payments.cancel.authorisations',
  basket: 'signing-baskets.authorisation.start',
};

/** The requirement that judges the scaMethods each resource's create answers (a missing method's root cause). */
export const METHODS_ROOT: Record<Resource, string> = {
  ...CREATE_ROOT,
  cancellation: 'payments.cancel.authorisation-sca-methods',
  basket: 'signing-baskets.authorisation.sca-methods',
};

/** An authorisation created (POST) on a new resource of one kind. */
export interface Made {
  resource: Resource;
  /** e.g. "payment authorisation (sepa-credit-transfers)". */
  what: string;
  resourceBasePath: string;
  created: ApiResponse;
  headers: HeaderSpec;
  sca: ScaDriver;
}

/** An authorisation created with an authorisationId: its path and the methods it offered. */
export interface Created extends Made {
  authorisationId: string;
  href: string;
  methods: string[];
}

/** The clients a check over every resource needs: a consent's (authorisations) and a payment's and basket's (baskets). */
export interface Clients {
  authorisations: AuthorisationsClient;
  baskets: BasketsClient;
}

/** The resources the profile claims authorisations of, each with why another is not judged. */
export function claimedResources(c: Clients, only: Resource[] = ['consent', 'payment', 'cancellation', 'basket']) {
  const target = c.baskets.api.target;
  const { features } = target.profile;
  const payment = features.includes('payments') ? firstClaimed(target) : undefined;
  const why: Record<Resource, string | undefined> = {
    consent: features.includes('authorisations') ? undefined : 'the profile claims no authorisations',
    payment: payment ? undefined : 'the profile claims no payment service and product',
    cancellation: firstCancellationAuthorised(target) ? undefined : 'the profile claims no cancellation authorisation',
    basket:
      payment && features.includes('signing-baskets') ? undefined : 'the profile claims no signing baskets to fill',
  };
  const claimed = only.filter((r) => why[r] === undefined);
  for (const r of only.filter((x) => why[x] !== undefined))
    test.info().annotations.push({ type: 'not claimed', description: `${r}: ${why[r]}` });
  test.skip(claimed.length === 0, only.map((r) => `${r}: ${why[r]}`).join('; '));
  return claimed;
}

/**
 * A new payment, cancelled payment or basket and the POST that creates an authorisation on it
 * (decoupled headers of the flow guide). A consent's is AuthorisationsClient.begin.
 */
export async function makeOn(
  c: Clients,
  resource: Exclude<Resource, 'consent'>,
  extra: HeaderSpec = {},
): Promise<Made> {
  const { payments } = c.baskets;
  const target = c.baskets.api.target;
  const headers = { ...payments.psuHeaders(), 'TPP-Redirect-Preferred': 'false', ...extra };
  if (resource === 'basket') {
    const { basePath } = await c.baskets.createdBasket(1);
    const created = await c.baskets.sca.create(basePath, 'authorisations', headers);
    return { resource, what: 'basket authorisation', resourceBasePath: basePath, created, headers, sca: c.baskets.sca };
  }
  const kind = resource === 'payment' ? firstClaimed(target)! : firstCancellationAuthorised(target)!;
  const { basePath } = await payments.initiated(kind);
  if (resource === 'cancellation') {
    const cancel = await payments.cancel(basePath);
    await prerequisite('payments.cancel.response', `cancel the ${label(kind)} payment`, async () =>
      expect(cancel).toSucceed(),
    );
  }
  const sub = resource === 'payment' ? 'authorisations' : 'cancellation-authorisations';
  const created = await payments.sca.create(basePath, sub, headers);
  const what = `${resource} authorisation (${label(kind)})`;
  return { resource, what, resourceBasePath: basePath, created, headers, sca: payments.sca };
}

/** The authorisation's sub-resource path of a resource. */
const subOf = (r: Resource) => (r === 'cancellation' ? 'cancellation-authorisations' : 'authorisations');

/** An authorisation created on a new resource of the kind, a step (judged by CREATE_ROOT): its id and the methods offered. */
export async function createdOn(c: Clients, resource: Resource, extra: HeaderSpec = {}): Promise<Created> {
  if (resource === 'consent') {
    const b = await c.authorisations.begin({ headers: extra });
    return {
      resource,
      what: 'consent authorisation',
      resourceBasePath: b.resourceBasePath,
      created: b.created,
      headers: c.authorisations.headers(extra),
      sca: c.authorisations.sca,
      authorisationId: b.authorisationId,
      href: b.href,
      methods: b.methods.map((m) => m.authenticationMethodId),
    };
  }
  const made = await makeOn(c, resource, extra);
  return prerequisite(CREATE_ROOT[resource], `create a ${made.what}`, async () => {
    expect(made.created).toSucceed();
    const body = made.created.json<{ authorisationId?: string; scaMethods?: { authenticationMethodId?: unknown }[] }>();
    expect(body.authorisationId, `an authorisationId; got ${made.created.describe()}`).toEqual(expect.any(String));
    return {
      ...made,
      authorisationId: body.authorisationId!,
      href: `${made.resourceBasePath}/${subOf(resource)}/${body.authorisationId}`,
      methods: (body.scaMethods ?? []).map((m) => String(m.authenticationMethodId)),
    };
  });
}

/**
 * The method `pick` chooses among those the authorisation offered, blocked (by the create's
 * requirement, or `offeredBy`) when it offers none; a method the profile's sca.methods leaves out
 * skips the check as not claimed.
 */
export async function methodOf(
  a: Created,
  pick: (methods: string[]) => string | undefined,
  what: string,
  offeredBy = METHODS_ROOT[a.resource],
): Promise<string> {
  return prerequisite(offeredBy, `an SCA method offered on the ${a.what} for ${what}`, async () => {
    const method = pick(a.methods);
    expect(method, `scaMethods offers no method for ${what} (offered: ${a.methods.join(', ') || 'none'})`).toBeTruthy();
    return method!;
  });
}

/** Skips the test when the profile's sca.methods leaves `method` out. */
export function skipUnclaimedMethod(target: { profile: { sca?: { methods?: string[] } } }, method: string): void {
  const claimed = target.profile.sca?.methods;
  test.skip(
    !!claimed && !claimed.includes(method),
    `not claimed: sca.methods of the profile lists ${claimed?.join(', ')}, not ${method}`,
  );
}

/**
 * A new authorisation of `resource`, created as every new one is (States > Authorisation: "none →
 * received: authorisationId and the list of SCA methods are returned"): its create is a
 * prerequisite judged by `CREATE_ROOT`; its answer must list SCA methods, each with an id.
 */
export async function expectScaMethodsOn(c: Clients, resource: Exclude<Resource, 'consent'>): Promise<void> {
  claimedResources(c, [resource]);
  const made = await makeOn(c, resource);
  await prerequisite(CREATE_ROOT[resource], `create the ${made.what}`, async () => expect(made.created).toSucceed());
  const methods = made.created.json<{ scaMethods?: unknown }>().scaMethods;
  expect(
    Array.isArray(methods) &&
      methods.length > 0 &&
      methods.every((m) => typeof (m as { authenticationMethodId?: unknown })?.authenticationMethodId === 'string'),
    because(
      `${made.what}: "authorisationId and the list of SCA methods are returned" (States > Authorisation); scaMethods: ${JSON.stringify(methods)}`,
    ),
  ).toBe(true);
}
