// init, step 2 (probing): what one consent offers (asked for, and deleted again). Its
// authorisation's SCA methods; the approaches the bank answers when an authorisation is started
// with the redirect preferred and with a decoupled method (ASPSP-SCA-Approach); the authorise
// page of the redirect flow (which chooses the PSU agent); where the decoupled SCA ends on its
// own within seconds (a test bank's), the accounts the authorised consent shows.
import { isoDay } from '../../spec/iso8601.js';
import { randomUUID } from 'node:crypto';
import type { Answer, Bank } from './bank.js';

/** An account the consent showed (what payments.accounts can take as a test account). */
export interface ShownAccount {
  iban?: string;
  bban?: string;
  currency?: string;
  name?: string;
}

export interface ConsentFindings {
  methods: string[];
  approaches: string[];
  accounts?: ShownAccount[];
  authorizeUrl?: string;
  authorizeFrom?: string;
  /** What delete consent answered, and the status read after it. */
  deleted?: string;
  afterDelete?: string;
  /** Why the probe stopped, when it did. */
  problem?: string;
  /** What it saw that the notes should say. */
  seen: string[];
}

/** How long a decoupled SCA is waited for before the accounts are left unread. */
const FINALISE_WAIT_MS = 12_000;
const DECOUPLED_METHODS = ['mbid_same_device', 'mbid_animated_qr_token', 'mbid_animated_qr_image', 'mbid'];

const linkOf = (body: unknown, name: string): string | undefined => {
  const href = (body as { _links?: Record<string, { href?: string } | string> } | undefined)?._links?.[name];
  return typeof href === 'string' ? href : href?.href;
};
const describe = (a: Answer) => a.error ?? `${a.status}${a.code ? ` ${a.code}` : ''}`;

class ConsentProbe {
  readonly found: ConsentFindings = { methods: [], approaches: [], seen: [] };
  private readonly psu: Record<string, string>;
  private readonly redirect: Record<string, string>;

  constructor(
    private readonly bank: Bank,
    private readonly consents: string,
  ) {
    const a = bank.answers;
    this.psu = { ...(a.psuId ? { 'PSU-ID': a.psuId } : {}), 'PSU-IP-Address': '192.0.2.10' };
    // TPP-Redirect-URI is mandated when TPP-Redirect-Preferred is true (Common request headers):
    // without a redirect URI the probe prefers nothing and the bank picks its approach.
    this.redirect = a.redirectUri ? { 'TPP-Redirect-Preferred': 'true', 'TPP-Redirect-URI': a.redirectUri } : {};
  }

  private call(method: string, path: string, headers: Record<string, string> = {}, json?: unknown) {
    return this.bank.call(method, path, {
      scope: 'accountinformation',
      headers: { ...this.psu, ...headers },
      ...(json !== undefined ? { json } : {}),
    });
  }

  /** The authorise URL of a scaOAuth or scaRedirect link, with what the client fills (section F) when the link leaves it out. */
  private authorizeUrlOf(href: string): string {
    const a = this.bank.answers;
    const u = new URL(href, `${a.baseUrl}/`);
    if (!u.searchParams.has('client_id') && a.clientId) u.searchParams.set('client_id', a.clientId);
    if (!u.searchParams.has('redirect_uri') && a.redirectUri) u.searchParams.set('redirect_uri', a.redirectUri);
    if (!u.searchParams.has('state')) u.searchParams.set('state', randomUUID());
    return u.toString();
  }

  private takeAuthorizeLink(body: unknown, from: string, how = '') {
    for (const name of ['scaOAuth', 'scaRedirect']) {
      const href = linkOf(body, name);
      if (href && !this.found.authorizeUrl) {
        this.found.authorizeUrl = this.authorizeUrlOf(href);
        this.found.authorizeFrom = `${from}'s ${name}${how}`;
      }
    }
  }

  private approachOf(a: Answer) {
    const approach = a.headers['aspsp-sca-approach']?.toUpperCase();
    if (approach && !this.found.approaches.includes(approach)) this.found.approaches.push(approach);
    return approach;
  }

  /** Creates the consent; its id. */
  async create(): Promise<string> {
    const created = await this.call('POST', this.consents, this.redirect, {
      access: { balances: [], transactions: [] },
      recurringIndicator: false,
      validUntil: isoDay(Date.now() + 86_400_000),
      frequencyPerDay: 1,
      combinedServiceIndicator: false,
    });
    if (created.status < 200 || created.status >= 300) throw new Error(`create consent answered ${describe(created)}`);
    const id = (created.json as { consentId?: unknown } | undefined)?.consentId;
    if (typeof id !== 'string' || !id) throw new Error('create consent: no consentId');
    this.takeAuthorizeLink(created.json, 'the create-consent answer');
    return id;
  }

  /** Creates an authorisation; its id and the methods it offers. */
  private async authorisation(consentId: string, headers: Record<string, string>) {
    const res = await this.call('POST', `${this.consents}/${consentId}/authorisations`, headers);
    if (res.status < 200 || res.status >= 300) throw new Error(`create authorisation answered ${describe(res)}`);
    const body = res.json as { authorisationId?: string; scaMethods?: { authenticationMethodId?: string }[] };
    const ids = (body?.scaMethods ?? []).map((m) => m.authenticationMethodId).filter((m): m is string => !!m);
    for (const m of ids) if (!this.found.methods.includes(m)) this.found.methods.push(m);
    return { id: body?.authorisationId, methods: ids };
  }

  private start(consentId: string, authorisationId: string, method: string, headers: Record<string, string>) {
    return this.call('PUT', `${this.consents}/${consentId}/authorisations/${authorisationId}`, headers, {
      authenticationMethodId: method,
    });
  }

  /** The redirect flow: an authorisation started with mbid, redirect preferred. */
  async redirectFlow(consentId: string) {
    const auth = await this.authorisation(consentId, this.redirect);
    if (!auth.id || !auth.methods.includes('mbid') || !this.bank.answers.redirectUri) return;
    const started = await this.start(consentId, auth.id, 'mbid', this.redirect);
    const approach = this.approachOf(started);
    this.found.seen.push(
      `start authorisation with mbid, redirect preferred: ${describe(started)}, ASPSP-SCA-Approach ${approach ?? 'absent'}`,
    );
    this.takeAuthorizeLink(started.json, 'the start-authorisation answer', ' (mbid)');
  }

  /** The decoupled flow: an authorisation started with a decoupled method, redirect not preferred; waited for. */
  async decoupledFlow(consentId: string): Promise<boolean> {
    const auth = await this.authorisation(consentId, { 'TPP-Redirect-Preferred': 'false' });
    const method = DECOUPLED_METHODS.find((m) => auth.methods.includes(m));
    if (!auth.id || !method) return false;
    const started = await this.start(consentId, auth.id, method, { 'TPP-Redirect-Preferred': 'false' });
    const approach = this.approachOf(started);
    this.found.seen.push(
      `start authorisation with ${method}, redirect not preferred: ${describe(started)}, ASPSP-SCA-Approach ${approach ?? 'absent'}`,
    );
    if (approach !== 'DECOUPLED') return false;
    const until = Date.now() + FINALISE_WAIT_MS;
    while (Date.now() < until) {
      const res = await this.call('GET', `${this.consents}/${consentId}/authorisations/${auth.id}`);
      const status = (res.json as { scaStatus?: string } | undefined)?.scaStatus;
      if (status === 'finalised') return true;
      if (status === 'failed' || res.status >= 400) return false;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    this.found.seen.push(
      `the decoupled SCA did not end within ${FINALISE_WAIT_MS / 1000} s (a real PSU's): no account read`,
    );
    return false;
  }

  /** The accounts the authorised consent shows. */
  async accounts(consentId: string, accountsPath: string) {
    const res = await this.bank.call('GET', accountsPath, {
      scope: 'accountinformation',
      headers: { ...this.psu, 'Consent-ID': consentId },
    });
    const list = (res.json as { accounts?: ShownAccount[] } | undefined)?.accounts;
    if (res.status === 200 && Array.isArray(list)) {
      this.found.accounts = list.map(({ iban, bban, currency, name }) => ({ iban, bban, currency, name }));
      this.found.seen.push(`the authorised consent shows ${list.length} account(s)`);
    } else this.found.seen.push(`GET /${accountsPath} with the authorised consent answered ${describe(res)}`);
  }

  /** Deletes the consent, then reads its status (the readings consents.afterDelete and deleteAnswer). */
  async remove(consentId: string) {
    const at = `${this.consents}/${consentId}`;
    const del = await this.call('DELETE', at);
    if (!del.status) return;
    this.found.deleted = `${del.status}${del.text.trim() ? ' with a body' : ' without a body'}`;
    const read = await this.call('GET', `${at}/status`);
    const status = (read.json as { consentStatus?: string } | undefined)?.consentStatus;
    if (read.status) this.found.afterDelete = status ? `${read.status}, consentStatus ${status}` : String(read.status);
  }
}

/** One consent created, looked at and deleted again. A step that fails ends the probe with its reason. */
export async function probeConsent(bank: Bank, consents: string, accounts?: string): Promise<ConsentFindings> {
  const probe = new ConsentProbe(bank, consents);
  let consentId: string | undefined;
  try {
    consentId = await probe.create();
    await probe.redirectFlow(consentId);
    const authorised = await probe.decoupledFlow(consentId);
    if (authorised && accounts) await probe.accounts(consentId, accounts);
  } catch (err) {
    probe.found.problem = (err as Error).message;
  } finally {
    if (consentId) await probe.remove(consentId);
  }
  return probe.found;
}
