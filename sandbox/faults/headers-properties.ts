import { randomUUID } from 'node:crypto';
import { isIpv4 } from '../../spec/header-forms.js';
import { formatError } from '../errors.js';
import { beforeGuard } from '../hooks.js';
import type { Fault } from './fault.js';

// Faults that sit between the hand-written header checks' points and that only the generated phase
// (tests/headers/properties/) finds: the hand-written checks send a few fixed values (a geo location
// without its prefix and one with two decimals, 256.1.2.3, device-0001, FETCH and get, positive
// coordinates), each of which these banks still answer as the rule says.

const ANY_API = /^\/(psd2|iso)\//;
/** Every operation but the account reads (accounts.read.psu-ip-address-format tries 192.0.2.300 there). */
const NOT_ACCOUNTS = /^\/(psd2\/(?!accountinformation\/)|iso\/)/;

const faults: Fault[] = [
  {
    id: 'headers.x-bicfi-bank-code-digits-taken',
    caughtBy: 'properties',
    description:
      'X-BicFi is checked for its length, case, 7th and 8th characters only: a digit among the six letters of the bank and country code is taken',
    breaks: ['headers.x-bicfi.pattern'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        const bic = String(req.headers['x-bicfi'] ?? '');
        if (/^[A-Z0-9]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/.test(bic) && /\d/.test(bic.slice(0, 6)))
          req.headers['x-bicfi'] = `${bic.slice(0, 6).replace(/\d/g, 'X')}${bic.slice(6)}`;
      }),
  },
  {
    id: 'headers.psu-geo-location-longitude-decimals-unchecked',
    caughtBy: 'properties',
    description:
      'PSU-Geo-Location is checked for six decimals in its latitude only: a longitude of five or seven decimals is taken',
    breaks: ['headers.psu-geo-location.format'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        const m = /^(GEO:-?\d{1,2}\.\d{6};-?\d{1,3})\.(\d+)$/.exec(String(req.headers['psu-geo-location'] ?? ''));
        if (m) req.headers['psu-geo-location'] = `${m[1]}.${m[2].padEnd(6, '0').slice(0, 6)}`;
      }),
  },
  {
    id: 'headers.psu-ip-address-first-octet-only',
    caughtBy: 'properties',
    description:
      'PSU-IP-Address is checked as four groups of up to three digits with the first at most 255: 10.0.0.256 or 1.300.2.3 is taken',
    breaks: ['headers.psu-ip-address.format'],
    install: (app) =>
      beforeGuard(app, { route: NOT_ACCOUNTS }, (req) => {
        const ip = String(req.headers['psu-ip-address'] ?? '');
        if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip) && Number(ip.split('.')[0]) <= 255 && !isIpv4(ip))
          req.headers['psu-ip-address'] = '192.0.2.9';
      }),
  },
  {
    id: 'headers.psu-device-id-hex-unchecked',
    caughtBy: 'properties',
    description:
      'PSU-Device-ID is checked for the hyphens of a uuid only: any 36 characters with hyphens at its four places are taken',
    breaks: ['headers.psu-device-id.uuid'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        if (/^[^-]{8}-[^-]{4}-[^-]{4}-[^-]{4}-[^-]{12}$/.test(String(req.headers['psu-device-id'] ?? '')))
          req.headers['psu-device-id'] = randomUUID();
      }),
  },
  {
    id: 'headers.psu-http-method-any-http-method',
    caughtBy: 'properties',
    description:
      "PSU-Http-Method is checked against HTTP's methods (RFC 9110) instead of the five: HEAD, OPTIONS, TRACE and CONNECT are taken",
    breaks: ['headers.psu-http-method.enum'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        if (['HEAD', 'OPTIONS', 'TRACE', 'CONNECT'].includes(String(req.headers['psu-http-method'])))
          req.headers['psu-http-method'] = 'GET';
      }),
  },
  {
    id: 'headers.psu-geo-location-negative-refused',
    caughtBy: 'properties',
    description:
      'a PSU-Geo-Location south of the equator or west of Greenwich (a negative coordinate) is refused (400 FORMAT_ERROR)',
    breaks: ['headers.optional.psu-forwarded'],
    install: (app) =>
      beforeGuard(app, { route: ANY_API }, (req) => {
        const geo = req.headers['psu-geo-location'];
        if (typeof geo === 'string' && /^GEO:(-|[^;]*;-)/.test(geo))
          throw formatError(
            `header PSU-Geo-Location must be GEO:<lat>;<lon>, got "${geo.slice(0, 60)}"`,
            'PSU-Geo-Location',
          );
      }),
  },
];

export default faults;
