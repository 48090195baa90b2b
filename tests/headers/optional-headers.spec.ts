import { randomUUID } from 'node:crypto';
import { acceptanceTests, accepts, acceptsRedirectAndNotification, test } from '../../harness/operations.js';

// Optional headers are accepted wherever "Common request headers" says an operation accepts their
// group: valid values of each group, on every claimed operation of the group's (harness/operations/table.ts,
// harness/operations/header-rules.ts).

for (const t of acceptanceTests({
  requirement: 'headers.optional.psu-forwarded',
  title: 'accepts the forwarded PSU headers',
  applies: accepts('psu-forwarded'),
  headers: (o) => ({
    'PSU-IP-Port': '443',
    'PSU-Accept': 'application/json',
    'PSU-Accept-Charset': 'utf-8',
    'PSU-Accept-Encoding': 'gzip',
    'PSU-Accept-Language': 'sv-SE',
    'PSU-User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) obg-conformance',
    'PSU-Http-Method': o.method,
    'PSU-Device-ID': randomUUID(),
    'PSU-Geo-Location': 'GEO:59.329323;18.068581',
  }),
}))
  test(t.title, t.details, t.body);

for (const t of acceptanceTests({
  requirement: 'headers.optional.psu-identification',
  title: 'that creates or updates an authorisation accepts the PSU identification headers',
  applies: accepts('psu-identification'),
  headers: (_o, target) => ({
    'PSU-ID-Type': 'personal-identity-number',
    ...(target.profile.psuContext === 'corporate' && target.psuCorporateId
      ? { 'PSU-Corporate-ID': target.psuCorporateId, 'PSU-Corporate-ID-Type': 'organisation-number' }
      : {}),
  }),
}))
  test(t.title, t.details, t.body);

for (const t of acceptanceTests({
  requirement: 'headers.optional.redirect-notification',
  title: 'that creates a resource or starts an authorisation accepts the redirect and notification headers',
  applies: acceptsRedirectAndNotification,
  headers: (_o, target) => ({
    'TPP-Redirect-URI': target.redirectUri,
    'TPP-Nok-Redirect-URI': target.redirectUri,
    'TPP-Notification-URI': 'https://tpp.example/notifications',
    'TPP-Notification-Content-Preferred': 'status=SCA,PROCESS',
  }),
}))
  test(t.title, t.details, t.body);

for (const t of acceptanceTests({
  requirement: 'headers.optional.rejection-no-funds',
  title: 'of payment initiation accepts TPP-Rejection-NoFunds-Preferred',
  applies: accepts('rejection-no-funds'),
  headers: () => ({ 'TPP-Rejection-NoFunds-Preferred': 'true' }),
}))
  test(t.title, t.details, t.body);

for (const t of acceptanceTests({
  requirement: 'headers.optional.explicit-authorisation',
  title: 'that creates what is authorised accepts TPP-Explicit-Authorisation-Preferred',
  applies: accepts('explicit-authorisation'),
  headers: () => ({ 'TPP-Explicit-Authorisation-Preferred': 'true' }),
}))
  test(t.title, t.details, t.body);
