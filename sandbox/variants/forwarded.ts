import { isIPv6 } from 'node:net';
import { isIpv4 } from '../../spec/header-forms.js';
import { beforeGuard } from '../hooks.js';
import type { Variant } from './variant.js';

/** The forwarded PSU headers whose format the rows give. */
const FORWARDED = ['psu-http-method', 'psu-device-id', 'psu-geo-location'];

/** The format SHOULDs of those headers (the refusal and its exact code): a bank that serves them warns there. */
const FORMAT_RULES = [
  'headers.psu-http-method.enum',
  'headers.psu-device-id.uuid',
  'headers.psu-geo-location.format',
  'headers.psu-http-method.enum-code',
  'headers.psu-device-id.uuid-code',
  'headers.psu-geo-location.format-code',
];

/** Forwarded PSU data is the TPP's to send when available; a bank may take it as it comes. */
const variants: Variant[] = [
  {
    id: 'headers.forwarded-never-validated',
    description:
      'no operation reads the format of PSU-Http-Method, PSU-Device-ID or PSU-Geo-Location: a malformed value is ignored and the call served',
    allows:
      '| PSU-IP-Port, PSU-Accept, PSU-Accept-Charset, PSU-Accept-Encoding, PSU-Accept-Language, PSU-User-Agent | string | forwarded PSU request data, when available | (Common request headers: the rows of PSU-Http-Method, PSU-Device-ID and PSU-Geo-Location give the format of forwarded data; no sentence says the bank refuses a malformed one)',
    concerns: [...FORMAT_RULES, 'headers.optional.psu-forwarded'],
    warns: FORMAT_RULES,
    install: (app) =>
      beforeGuard(app, { route: /./ }, (req) => {
        for (const h of FORWARDED) delete req.headers[h];
      }),
  },
  {
    id: 'headers.psu-ip-address-any-ip',
    description:
      'every operation takes an IPv6 PSU-IP-Address as it takes an IPv4 one; a value that is no IP address is served too (not refused)',
    allows:
      '| PSU-IP-Address | string(ipv4) | included if and only if the PSU actively initiated the request. Required on initiate payment and create signing basket | (Common request headers: the type of what the TPP sends; no sentence says the bank refuses another value)',
    concerns: [
      'headers.psu-ip-address.format',
      'accounts.read.psu-ip-address-format',
      'headers.psu-ip-address.payments',
      'headers.psu-ip-address.payments-format',
      'headers.psu-ip-address.payments-code',
      'signing-baskets.create.psu-ip-address',
      'signing-baskets.create.psu-ip-address-format',
      'signing-baskets.create.psu-ip-address-code',
    ],
    warns: [
      'headers.psu-ip-address.format',
      'accounts.read.psu-ip-address-format',
      'headers.psu-ip-address.payments-format',
      'headers.psu-ip-address.payments-code',
      'signing-baskets.create.psu-ip-address-format',
      'signing-baskets.create.psu-ip-address-code',
    ],
    // A present value that is not IPv4 reaches the bank's checks as an IPv4 one: taken, whatever it is.
    install: (app) =>
      beforeGuard(app, { route: /./ }, (req) => {
        const ip = req.headers['psu-ip-address'];
        if (typeof ip === 'string' && !isIpv4(ip))
          req.headers['psu-ip-address'] = isIPv6(ip) ? '192.0.2.6' : '192.0.2.7';
      }),
  },
];

export default variants;
