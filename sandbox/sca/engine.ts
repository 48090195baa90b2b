import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { BoundedMap } from '../store.js';

export type ScaStatus =
  | 'received'
  | 'psuIdentified'
  | 'psuAuthenticated'
  | 'scaMethodSelected'
  | 'started'
  | 'finalised'
  | 'failed'
  | 'exempted';
export const TERMINAL: ReadonlySet<ScaStatus> = new Set(['finalised', 'failed', 'exempted']);

export type ResourceType = 'consent' | 'payment' | 'cancellation' | 'basket';

/** The resource an authorisation authorises (specification: Resource variables used by the authorisation flows). */
export interface ScaResource {
  type: ResourceType;
  id: string;
  clientId: string;
  psuId?: string;
  context: 'private' | 'corporate';
}

export interface ScaMethod {
  authenticationType: string;
  authenticationMethodId: string;
  name: string;
}

/** The methods the sandbox offers: redirect (mbid) and the decoupled Mobile BankID variants. */
export const SCA_METHODS: ScaMethod[] = [
  { authenticationType: 'PUSH_OTP', authenticationMethodId: 'mbid', name: 'Mobile BankID' },
  { authenticationType: 'PUSH_OTP', authenticationMethodId: 'mbid_same_device', name: 'Mobile BankID on this device' },
  {
    authenticationType: 'PHOTO_OTP',
    authenticationMethodId: 'mbid_animated_qr_token',
    name: 'Mobile BankID on another device (animated QR token)',
  },
  {
    authenticationType: 'PHOTO_OTP',
    authenticationMethodId: 'mbid_animated_qr_image',
    name: 'Mobile BankID on another device (animated QR image)',
  },
];

export interface Authorisation {
  authorisationId: string;
  resource: ScaResource;
  status: ScaStatus;
  methodId?: string;
  approach?: 'REDIRECT' | 'DECOUPLED';
  createdAt: number;
  startedAt?: number;
  endedAt?: number;
  /** Decoupled: the auto-start token for the app link. */
  autoStartToken?: string;
  /** Decoupled animated QR: the secret the per-second token is derived from. */
  qrSecret?: string;
  /** Redirect: what the authorise request carried and the code it produced. */
  redirect?: {
    state?: string;
    redirectUri?: string;
    code?: string;
    codeUsed?: boolean;
    scope?: string;
    codeIssuedAt?: number;
  };
}

export type EndListener = (auth: Authorisation) => void;

export interface ScaEngineOptions {
  /** A started decoupled SCA ends on its own after this delay. */
  delayMs: number;
  /** PSU ids whose SCA fails instead of finalising. */
  failingPsuIds: ReadonlySet<string>;
  max: number;
  /** The animated QR methods run at least this long, so that the rotation of the token can be seen (default: delayMs). */
  qrDelayMs?: number;
}

/**
 * One SCA engine for every kind of resource: consents, payments, cancellations and baskets
 * create authorisations here and are told when one ends (finalised or failed).
 */
export class ScaEngine {
  private readonly auths: BoundedMap<string, Authorisation>;
  private readonly listeners = new Map<ResourceType, EndListener[]>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(readonly options: ScaEngineOptions) {
    this.auths = new BoundedMap(options.max);
  }

  create(resource: ScaResource): Authorisation {
    const auth: Authorisation = { authorisationId: randomUUID(), resource, status: 'received', createdAt: Date.now() };
    this.auths.set(auth.authorisationId, auth);
    return auth;
  }

  get(authorisationId: string): Authorisation | undefined {
    return this.auths.get(authorisationId);
  }

  of(type: ResourceType, resourceId: string): Authorisation[] {
    return [...this.auths.values()].filter((a) => a.resource.type === type && a.resource.id === resourceId);
  }

  /** Starts the SCA with a chosen method. A decoupled SCA ends on its own after the delay. */
  start(auth: Authorisation, methodId: string, approach: 'REDIRECT' | 'DECOUPLED'): void {
    auth.methodId = methodId;
    auth.approach = approach;
    auth.status = 'started';
    auth.startedAt = Date.now();
    if (approach === 'DECOUPLED') {
      auth.autoStartToken = randomUUID();
      auth.qrSecret = randomBytes(16).toString('hex');
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.end(auth, this.options.failingPsuIds.has(auth.resource.psuId ?? '') ? 'failed' : 'finalised');
      }, this.delayFor(methodId));
      timer.unref();
      this.timers.add(timer);
    }
  }

  /** How long a decoupled SCA with this method runs before it ends on its own. */
  delayFor(methodId: string): number {
    const qr = methodId.startsWith('mbid_animated_qr');
    return qr ? Math.max(this.options.delayMs, this.options.qrDelayMs ?? 0) : this.options.delayMs;
  }

  /** Ends an authorisation once; terminal statuses never change again. */
  end(auth: Authorisation, outcome: 'finalised' | 'failed'): void {
    if (TERMINAL.has(auth.status)) return;
    auth.status = outcome;
    auth.endedAt = Date.now();
    for (const l of this.listeners.get(auth.resource.type) ?? []) l(auth);
  }

  /** Called when an authorisation of a resource of `type` ends. */
  onEnd(type: ResourceType, listener: EndListener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  /** The animated QR token of the current second: it changes every second while the SCA runs. */
  qrToken(auth: Authorisation, at = Date.now()): string | undefined {
    if (!auth.qrSecret || !auth.startedAt) return undefined;
    const second = Math.floor((at - auth.startedAt) / 1000);
    return `bankid.${auth.autoStartToken}.${second}.${createHmac('sha256', auth.qrSecret).update(String(second)).digest('hex').slice(0, 32)}`;
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
