import { accepts, refusalTests, takesPsuIpAddress, test } from '../../harness/operations.js';

// Formats of the forwarded PSU headers (Common request headers), on every claimed operation that accepts them:
// SHOULDs, as the rows give the format of forwarded data, sent "when available", and no sentence says the bank refuses.

const forwarded = accepts('psu-forwarded');

for (const t of refusalTests({
  requirement: 'headers.psu-http-method.enum',
  title: 'called with a PSU-Http-Method outside GET, POST, PUT, PATCH, DELETE is refused and changes nothing',
  applies: forwarded,
  cases: () =>
    ['FETCH', 'get'].map((v) => ({
      what: `PSU-Http-Method "${v}"`,
      call: { headers: { 'PSU-Http-Method': v } },
    })),
}))
  test(t.title, t.details, t.body);

for (const t of refusalTests({
  requirement: 'headers.psu-device-id.uuid',
  title: 'called with a PSU-Device-ID that is not a uuid is refused and changes nothing',
  applies: forwarded,
  cases: () =>
    ['device-0001'].map((v) => ({
      what: `PSU-Device-ID "${v}"`,
      call: { headers: { 'PSU-Device-ID': v } },
    })),
}))
  test(t.title, t.details, t.body);

for (const t of refusalTests({
  requirement: 'headers.psu-geo-location.format',
  title:
    'called with a PSU-Geo-Location not of the form GEO:<lat>;<lon> with six decimals is refused and changes nothing',
  applies: forwarded,
  cases: () =>
    ['59.329323;18.068581', 'GEO:59.33;18.07'].map((v) => ({
      what: `PSU-Geo-Location "${v}"`,
      call: { headers: { 'PSU-Geo-Location': v } },
    })),
}))
  test(t.title, t.details, t.body);

// PSU-IP-Address (Common request headers: string(ipv4)) on every claimed operation that takes it
// (harness/operations/header-rules.ts, takesPsuIpAddress). Account reads: accounts.read.psu-ip-address-format.

for (const t of refusalTests({
  requirement: 'headers.psu-ip-address.format',
  title: 'that takes PSU-IP-Address, called with one that is no IP address, is refused and changes nothing',
  applies: takesPsuIpAddress,
  // No IPv6 address: the header is typed for what the TPP sends, and a bank may take an IPv6 one.
  cases: () =>
    ['not-an-ip', '256.1.2.3'].map((v) => ({
      what: `PSU-IP-Address "${v}"`,
      call: { headers: { 'PSU-IP-Address': v } },
    })),
}))
  test(t.title, t.details, t.body);
