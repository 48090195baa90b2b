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
];

export default variants;
