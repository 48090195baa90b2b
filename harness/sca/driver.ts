import { expect } from '../expect.js';
import { block, prerequisite } from '../http/broken.js';
import type { ApiClient, HeaderSpec } from '../http/client.js';
import type { ApiResponse } from '../http/response.js';
import { announceDecoupled, withPerson } from './manual-agent.js';

export const TERMINAL_SCA = ['finalised', 'failed', 'exempted'];

/** The authenticationMethodIds an answer offers in its scaMethods. */
export const offeredMethodIds = (body: unknown): string[] =>
  ((body as { scaMethods?: { authenticationMethodId?: unknown }[] } | undefined)?.scaMethods ?? [])
    .map((m) => m?.authenticationMethodId)
    .filter((m): m is string => typeof m === 'string');

/**
 * The method the redirect flow starts with: mbid ("The authenticationMethodId is always `mbid`",
 * section F), taken from scaMethods ("Body: `authenticationMethodId` (string), taken from
 * scaMethods"). A bank whose answer (`offering`) did not offer it blocks the check by `root`, the
 * requirement that judges that answer: the suite never sends a method the bank did not offer.
 */
export function redirectMethod(offering: { body: unknown; describe(): string }, root: string): string {
  const offered = offeredMethodIds(offering.body);
  if (!offered.includes('mbid'))
    block(
      root,
      'the redirect method mbid offered (section F)',
      `scaMethods offers ${offered.join(', ') || 'no method'}: ${offering.describe()}`,
    );
  return 'mbid';
}

/**
 * The authorisation the bank created itself on a resource ("The bank may create the
 * authorisation automatically after create consent", section B; likewise after initiate payment):
 * the first id of the authorisation list (`listKey`, authorisationIds by default) whose SCA status
 * is still `received`, or undefined when the list holds none.
 */
export async function findBankAuthorisation(
  api: ApiClient,
  resourceBasePath: string,
  headers: HeaderSpec,
  listKey = 'authorisationIds',
  sub = 'authorisations',
): Promise<string | undefined> {
  const list = await api.get(`${resourceBasePath}/${sub}`, { headers });
  if (list.status < 200 || list.status >= 300) return undefined;
  const ids = (list.body as Record<string, unknown> | undefined)?.[listKey];
  if (!Array.isArray(ids)) return undefined;
  for (const id of ids) {
    if (typeof id !== 'string' || !id) continue;
    const st = await api.get(`${resourceBasePath}/${sub}/${id}`, { headers });
    if ((st.body as { scaStatus?: unknown } | undefined)?.scaStatus === 'received') return id;
  }
  return undefined;
}

/** One poll of an SCA status: when it was sent and answered, what it said. */
export interface PollRecord {
  sentAt: number;
  answeredAt: number;
  status: string;
  /** The challengeData token or image seen in this answer (animated QR). */
  token?: string;
}

export interface ScaOutcome {
  authorisationId: string;
  /** The authorisation's own path (resourceBasePath/authorisations/<id>). */
  href: string;
  scaStatus: string;
  startedAt: number;
  endedAt: number;
  polls: PollRecord[];
  created: ApiResponse;
  started: ApiResponse;
}

export interface AuthoriseOptions {
  /** authorisations (default) or cancellation-authorisations. */
  sub?: 'authorisations' | 'cancellation-authorisations';
  /** authenticationMethodId; default: the first decoupled method offered (mbid_same_device, else mbid). */
  method?: string;
  /**
   * The SCA methods the bank offered outside the create-authorisation answer (e.g. scaMethods in
   * the create-consent answer): used when the bank created the authorisation itself and refused a
   * second one, so there is no create-authorisation answer to read them from.
   */
  offered?: string[];
  /** Extra headers on the authorisation calls. */
  headers?: HeaderSpec;
  /** Poll interval within the specification's 500 to 1000 ms. */
  intervalMs?: number;
  /**
   * The requirements that judge the flow's steps, named as the root cause when a step fails and
   * the check that needed the flow is blocked (defaults: the authorisation endpoints' own).
   */
  roots?: Partial<ScaRoots>;
}

export interface ScaRoots {
  /** Creating the authorisation answers a 2xx with its id and the SCA methods offered. */
  create: string;
  /** Starting it with a decoupled method answers a 2xx. */
  start: string;
  /** Its status reaches a terminal one in time. */
  ends: string;
}

const DEFAULT_ROOTS: ScaRoots = {
  create: 'authorisations.create.response',
  start: 'authorisations.start.decoupled',
  ends: 'authorisations.status.ends',
};

const DECOUPLED_PREFERENCE = ['mbid_same_device', 'mbid'];

/**
 * The suite's SCA driver for any resource (specification: Resource variables used by the
 * authorisation flows; endpoint section F): create an authorisation on `resourceBasePath`,
 * start it with a method from scaMethods, and poll its status until it ends, one request at a time.
 */
export class ScaDriver {
  /**
   * `startBody` is the profile's payments.startAuthorisationBody, and so only for a payment's
   * driver: the operations table asks for psuData on the payment's start authorisation alone (its
   * consent, basket and cancellation start-authorisation rows name no body), so the other
   * resources' drivers leave it at 'flow-guide'.
   */
  constructor(
    private readonly api: ApiClient,
    private readonly scaTimeoutMs: number,
    private readonly startBody: 'flow-guide' | 'operations-table' = 'flow-guide',
  ) {}

  /**
   * POST <resourceBasePath>/<sub>: no body (flow guide), or a non-empty psuData on a payment's
   * authorisations (operations table, section D: "body `psuData` (required, non-empty)").
   */
  create(
    resourceBasePath: string,
    sub: AuthoriseOptions['sub'] = 'authorisations',
    headers?: HeaderSpec,
  ): Promise<ApiResponse> {
    const json =
      this.startBody === 'operations-table' && sub === 'authorisations'
        ? { psuData: { password: 'sandbox' } }
        : undefined;
    return this.api.post(`${resourceBasePath}/${sub}`, { json, headers });
  }

  /** PUT <authorisation> with authenticationMethodId. */
  start(href: string, authenticationMethodId: string, headers?: HeaderSpec): Promise<ApiResponse> {
    return this.api.put(href, { json: { authenticationMethodId }, headers });
  }

  status(href: string, headers?: HeaderSpec): Promise<ApiResponse> {
    return this.api.get(href, { headers });
  }

  /** One read of the SCA status, recorded in `polls` (with the animated QR token it carries); returns the status. */
  async pollOnce(href: string, polls: PollRecord[], headers?: HeaderSpec): Promise<string> {
    const sentAt = Date.now();
    const res = await this.status(href, headers);
    const body = res.json<{ scaStatus?: string; challengeData?: { data?: string | string[]; image?: string } }>();
    const status = String(body.scaStatus);
    const data = body.challengeData?.data;
    polls.push({
      sentAt,
      answeredAt: Date.now(),
      status,
      token: Array.isArray(data) ? data[0] : (data ?? body.challengeData?.image),
    });
    return status;
  }

  /**
   * Polls the SCA status every `intervalMs` (the next request only after the previous answer)
   * until a terminal status or the profile's SCA timeout; returns the timeline.
   */
  async pollUntilEnd(
    href: string,
    intervalMs = 750,
    headers?: HeaderSpec,
  ): Promise<{ status: string; polls: PollRecord[] }> {
    const polls: PollRecord[] = [];
    // The first read outside Playwright's poll, and the next one interval later: the same reads at
    // the same times as a poll from the start, without a failed attempt (an error with its stack,
    // a step and its code frame) for the status the SCA is expected to have at first.
    // A read that throws (a reset, a timeout) is left to the poll, which tries again as before.
    const started = Date.now();
    let status = await this.pollOnce(href, polls, headers).catch(() => '');
    if (TERMINAL_SCA.includes(status)) return { status, polls };
    await new Promise((done) => setTimeout(done, intervalMs));
    await expect
      .poll(
        async () => {
          status = await this.pollOnce(href, polls, headers);
          return status;
        },
        {
          intervals: [intervalMs],
          timeout: Math.max(1, this.scaTimeoutMs - (Date.now() - started)),
          message: `SCA status of ${href} did not reach a terminal status within ${this.scaTimeoutMs} ms`,
        },
      )
      .toMatch(new RegExp(`^(${TERMINAL_SCA.join('|')})$`));
    return { status, polls };
  }

  /**
   * The end of an authorisation that ended when it was created (finalised, exempted, or failed: the
   * bank ran its SCA then): its creation answer says so, or, where it offers no method to start,
   * its status read says so. Undefined otherwise.
   */
  private async finalisedAtCreation(
    created: ApiResponse,
    own: string | undefined,
    href: string,
    method: string | undefined,
    headers: HeaderSpec,
  ): Promise<Pick<ScaOutcome, 'scaStatus' | 'startedAt' | 'endedAt' | 'polls'> | undefined> {
    const at = Date.now();
    const done = (status: unknown) => typeof status === 'string' && TERMINAL_SCA.includes(status);
    const told = own ? undefined : (created.body as { scaStatus?: unknown } | undefined)?.scaStatus;
    if (done(told)) return { scaStatus: String(told), startedAt: at, endedAt: at, polls: [] };
    if (method) return undefined;
    const polls: PollRecord[] = [];
    const status = await this.pollOnce(href, polls, headers).catch(() => '');
    return done(status) ? { scaStatus: status, startedAt: at, endedAt: Date.now(), polls } : undefined;
  }

  /** The whole decoupled flow on a resource; returns how it ended. */
  async authorise(resourceBasePath: string, o: AuthoriseOptions = {}): Promise<ScaOutcome> {
    const headers: HeaderSpec = { 'TPP-Redirect-Preferred': 'false', ...o.headers };
    const roots = { ...DEFAULT_ROOTS, ...o.roots };
    const created = await this.create(resourceBasePath, o.sub, headers);
    // A bank that created the authorisation itself (section B) may refuse a second one: the suite takes the bank's.
    const own =
      created.status >= 400 && created.status < 500
        ? await findBankAuthorisation(
            this.api,
            resourceBasePath,
            headers,
            o.sub === 'cancellation-authorisations' ? 'cancellationIds' : 'authorisationIds',
            o.sub,
          )
        : undefined;
    if (!own) await prerequisite(roots.create, 'create the authorisation', async () => expect(created).toSucceed());
    const body = own
      ? {
          authorisationId: own,
          scaMethods: (o.offered ?? []).map((authenticationMethodId) => ({ authenticationMethodId })),
        }
      : created.json<{
          authorisationId: string;
          scaMethods?: { authenticationMethodId: string }[];
          _links?: Record<string, { href: string }>;
        }>();
    const offered = (body.scaMethods ?? []).map((m) => m.authenticationMethodId);
    const method = o.method ?? DECOUPLED_PREFERENCE.find((m) => offered.includes(m)) ?? offered[0];
    const href = `${resourceBasePath}/${o.sub ?? 'authorisations'}/${body.authorisationId}`;
    // An authorisation the bank ended when it created it (no further SCA needed: finalised, or
    // failed) is an authorisation ended: every check that needs an authorised resource is judged on
    // it; only those about the SCA steps themselves (a method asked for) need one started.
    const atOnce = o.method ? undefined : await this.finalisedAtCreation(created, own, href, method, headers);
    if (atOnce) return { authorisationId: body.authorisationId, href, ...atOnce, created, started: created };
    await prerequisite(roots.create, 'an SCA method offered', async () =>
      expect(method, `no SCA method offered by ${created.describe()}`).toBeTruthy(),
    );
    const startedAt = Date.now();
    const started = await this.start(href, method!, headers);
    await prerequisite(roots.start, `start the authorisation with ${method}`, async () => expect(started).toSucceed());
    // A person (sca.psuAgent manual) is shown the app link and QR code, one SCA at a time.
    const manual = this.api.target.profile.sca?.psuAgent === 'manual';
    const { status, polls } = await prerequisite(roots.ends, 'the SCA ends', () =>
      manual
        ? withPerson(async () => {
            await announceDecoupled(this.api.target, started.json());
            return this.pollUntilEnd(href, o.intervalMs, headers);
          })
        : this.pollUntilEnd(href, o.intervalMs, headers),
    );
    return {
      authorisationId: body.authorisationId,
      href,
      scaStatus: status,
      startedAt,
      endedAt: Date.now(),
      polls,
      created,
      started,
    };
  }
}
