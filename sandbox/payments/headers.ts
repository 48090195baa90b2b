import type { FastifyRequest } from 'fastify';
import { isIpv4 } from '../../spec/header-forms.js';
import { formatError } from '../errors.js';
import { requestHeader } from '../plugins/guard.js';

/** PSU-IP-Address is required on initiate payment and create signing basket, an IPv4 address (Common request headers). */
export function assertPsuIpAddress(req: FastifyRequest): void {
  const ip = requestHeader(req, 'PSU-IP-Address');
  if (!ip) throw formatError('header PSU-IP-Address is required on this operation', 'PSU-IP-Address');
  if (!isIpv4(ip))
    throw formatError(`header PSU-IP-Address must be an IPv4 address, got "${ip.slice(0, 60)}"`, 'PSU-IP-Address');
}

/** A PSU-IP-Address, where an operation carries one, is an IPv4 address (Common request headers: string(ipv4)). */
export function assertPsuIpAddressFormat(req: FastifyRequest): void {
  const ip = requestHeader(req, 'PSU-IP-Address');
  if (ip !== undefined && !isIpv4(ip))
    throw formatError(`header PSU-IP-Address must be an IPv4 address, got "${ip.slice(0, 60)}"`, 'PSU-IP-Address');
}

/** TPP-Redirect-URI is mandated when TPP-Redirect-Preferred is true (Common request headers). */
export function assertRedirectUri(req: FastifyRequest): void {
  const preferred = requestHeader(req, 'TPP-Redirect-Preferred');
  if (preferred !== undefined && preferred !== 'true' && preferred !== 'false') {
    throw formatError(
      `header TPP-Redirect-Preferred must be true or false, got "${preferred.slice(0, 20)}"`,
      'TPP-Redirect-Preferred',
    );
  }
  const uri = requestHeader(req, 'TPP-Redirect-URI');
  if (uri !== undefined && !URL.canParse(uri)) {
    throw formatError(`header TPP-Redirect-URI must be an absolute URI, got "${uri.slice(0, 60)}"`, 'TPP-Redirect-URI');
  }
  if (preferred === 'true' && !requestHeader(req, 'TPP-Redirect-URI')) {
    throw formatError('header TPP-Redirect-URI is mandated when TPP-Redirect-Preferred is true', 'TPP-Redirect-URI');
  }
}

/** The approach the bank announces: REDIRECT when preferred, else DECOUPLED. */
export const approachOf = (req: FastifyRequest) =>
  requestHeader(req, 'TPP-Redirect-Preferred') === 'true' ? 'REDIRECT' : 'DECOUPLED';
