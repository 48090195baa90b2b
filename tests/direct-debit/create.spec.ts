import { prerequisite, requireSuccess } from '../../harness/http/broken.js';
import { levelOf } from '../../harness/catalogue/catalogue.js';
import { linkUrl } from '../../harness/http/links.js';
import {
  because,
  dutchCreditor,
  expect,
  germanIban,
  req,
  test,
  withWrongCheckDigits,
} from '../../harness/areas/direct-debit.js';
import type { DirectDebitBody } from '../../harness/areas/direct-debit.js';
import { directDebitPaymentRequestSchema } from '../../schemas/direct-debit/payment-request.js';

test(
  'a valid collection is answered with a paymentId, and RCVD when it gives transactionStatus',
  req('direct-debit.create.response'),
  async ({ directDebit }) => {
    const res = await directDebit.create(directDebit.body());
    await expect(res).toSucceed();
    await expect(res).toMatchSchema('direct-debit/payment-created');
  },
);

test(
  'a valid collection is answered with every listed field: transactionStatus, paymentId and the confirmPayment and self links',
  req('direct-debit.create.complete'),
  async ({ directDebit }) => {
    const { res } = await directDebit.createPayment();
    await expect(res).toMatchSchema('direct-debit/payment-created-complete');
  },
);

test('a valid collection is answered 201', req('direct-debit.create.status-201'), async ({ directDebit }) => {
  await expect(await directDebit.create(directDebit.body())).toHaveStatus(201);
});

test(
  'the confirmPayment link, when given, points to /iso/payments/confirm and self to /iso/payments/<paymentId>',
  req('direct-debit.create.links'),
  async ({ directDebit }) => {
    const res = requireSuccess(
      await directDebit.create(directDebit.body()),
      'direct-debit.create.response',
      'create a direct debit',
    );
    const body = res.json<{ paymentId: string; _links?: Record<string, { href?: string }> }>();
    // A link may be absolute, rooted or relative: it is judged as the harness resolves it (harness/http/links.ts).
    const path = (href: string | undefined) =>
      typeof href === 'string' ? linkUrl(directDebit.api.target, href).pathname : href;
    // The links are listed, not required (direct-debit.create.complete): their targets are judged when given.
    const { confirmPayment, self } = body._links ?? {};
    // The paths the profile gives (paths.directDebitPayments, iso/payments in the specification).
    const under = `/${directDebit.api.target.profile.paths.directDebitPayments!.replace(/^\/+|\/+$/g, '')}`;
    const endsWith = (suffix: string) => new RegExp(`${suffix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    if (confirmPayment !== undefined)
      expect(
        path(confirmPayment.href),
        because(`_links.confirmPayment.href ends with ${under}/confirm; got ${confirmPayment.href}`),
      ).toMatch(endsWith(`${under}/confirm`));
    if (self !== undefined)
      expect(
        path(self.href),
        because(`_links.self.href ends with ${under}/${body.paymentId}; got ${self.href}`),
      ).toMatch(endsWith(`${under}/${body.paymentId}`));
  },
);

/** Values of an agent that are no BIC (the BIC pattern of the X-BicFi header row). */
const NOT_BICS = ['NOT A BIC', 'rabonl2u', 'COBADEFF1', 'COBADE', '12BADEFFXXX', 'ABNA-NL-2A'];

/** A body that breaks one rule; the rule is named in the test title. */
const refused: {
  title: string;
  id: string;
  /** The paired SHOULD of a MUST's exact answer, when not direct-debit.create.refusal-code (400 with tppMessages). */
  code?: { id: string; tpp: string };
  edit: (b: DirectDebitBody) => unknown;
}[] = [
  {
    title: 'a USD collection is refused',
    id: 'direct-debit.create.currency-eur',
    edit: (b) => ({ ...b, instructedAmount: { currency: 'USD', amount: b.instructedAmount.amount } }),
  },
  {
    title: 'a B2B collection (localInstrumentCode B2B) is refused',
    id: 'direct-debit.create.local-instrument-core',
    edit: (b) => ({ ...b, localInstrumentCode: 'B2B' }),
  },
  {
    title: 'a collection from a German debtor IBAN is refused',
    id: 'direct-debit.create.debtor-nl',
    edit: (b) => ({
      ...b,
      debtorAccount: { iban: germanIban(), currency: 'EUR' },
      debtorAgent: 'COBADEFF',
      debtorAgentName: 'Commerzbank',
    }),
  },
  {
    title: 'a requestedExecutionDate in the form 31.12.2026 is refused',
    id: 'direct-debit.create.dates-iso',
    edit: (b) => ({ ...b, requestedExecutionDate: '31.12.2026' }),
  },
  {
    title: 'a mandate dateOfSignature in the form 01/02/2025 is refused',
    id: 'direct-debit.create.dates-iso',
    edit: (b) => ({
      ...b,
      mandateRelatedInformation: { ...b.mandateRelatedInformation, dateOfSignature: '01/02/2025' },
    }),
  },
  {
    title: 'a debtor IBAN with wrong check digits is refused with FORMAT_ERROR',
    id: 'direct-debit.create.iban-check-digits',
    edit: (b) => ({ ...b, debtorAccount: { iban: withWrongCheckDigits(b.debtorAccount.iban), currency: 'EUR' } }),
  },
  {
    title: 'a creditor IBAN with wrong check digits is refused with FORMAT_ERROR',
    id: 'direct-debit.create.iban-check-digits',
    edit: (b) => ({ ...b, creditorAccount: { iban: withWrongCheckDigits(b.creditorAccount.iban), currency: 'EUR' } }),
  },
  // The agents are "BIC of the ... bank", as a payment's creditorAgent is a BICFI: the same values as
  // payments.initiate.creditor-agent-bicfi sends (lower case, 9 or 6 characters, digits among the
  // first six, free words), and a hyphenated one.
  ...(['creditorAgent', 'debtorAgent'] as const).flatMap((agent) =>
    NOT_BICS.map((bad) => ({
      title: `a ${agent} that is not a BIC (${JSON.stringify(bad)}) is refused`,
      id: 'direct-debit.create.bic',
      code: { id: 'direct-debit.create.bic-code', tpp: 'FORMAT_ERROR' },
      edit: (b: DirectDebitBody) => ({ ...b, [agent]: bad }),
    })),
  ),
  {
    title: 'a creditorId with wrong SEPA check digits is refused with FORMAT_ERROR',
    id: 'direct-debit.create.creditor-id',
    edit: (b) => ({ ...b, creditorId: withWrongCheckDigits(dutchCreditor().creditorId) }),
  },
  {
    title: 'a sequenceType outside FRST, RCUR, OOFF, FNAL (ONCE) is refused with FORMAT_ERROR',
    id: 'direct-debit.create.sequence-type',
    edit: (b) => ({ ...b, sequenceType: 'ONCE' }),
  },
  {
    title: 'a collection without mandateId is refused with FORMAT_ERROR',
    id: 'direct-debit.create.mandate',
    edit: (b) => ({
      ...b,
      mandateRelatedInformation: { dateOfSignature: b.mandateRelatedInformation.dateOfSignature },
    }),
  },
  {
    title: 'a collection without the mandate dateOfSignature is refused with FORMAT_ERROR',
    id: 'direct-debit.create.mandate',
    edit: (b) => ({ ...b, mandateRelatedInformation: { mandateId: b.mandateRelatedInformation.mandateId } }),
  },
];

for (const r of refused) {
  test(r.title, req(r.id), async ({ directDebit }) => {
    const res = await directDebit.create(r.edit(directDebit.body()));
    // A MUST asks for the class and no data (no paymentId); the SHOULDs also for the BG code.
    if (levelOf(r.id) === 'MUST') await expect(res, because(r.title)).toBeRefused();
    else await expect(res).toBeTppError(400, 'FORMAT_ERROR');
  });
  // The exact code of a MUST's refusal and its tppMessages body: a paired SHOULD.
  if (levelOf(r.id) === 'MUST')
    test(
      `${r.title}: answered 400 with ${r.code ? r.code.tpp : 'tppMessages'}`,
      req(r.code?.id ?? 'direct-debit.create.refusal-code'),
      async ({ directDebit }) => {
        await expect(await directDebit.create(r.edit(directDebit.body()))).toBeTppError(400, r.code?.tpp);
      },
    );
}

for (const sequenceType of ['FRST', 'RCUR', 'OOFF', 'FNAL']) {
  test(
    `sequenceType ${sequenceType} is accepted`,
    req('direct-debit.create.sequence-types-accepted'),
    async ({ directDebit }) => {
      await expect(await directDebit.create(directDebit.body({ sequenceType }))).toSucceed();
    },
  );
}

// "none | create SEPA direct debit payment | accepted | RCVD": every accepted create, whatever its
// sequence type (the create check sends RCUR, the value the specification shows).
for (const sequenceType of ['FRST', 'OOFF', 'FNAL']) {
  test(
    `a direct debit of sequenceType ${sequenceType}, accepted, is created RCVD`,
    req('direct-debit.create.response'),
    async ({ directDebit }) => {
      const res = await directDebit.create(directDebit.body({ sequenceType }));
      await prerequisite(
        'direct-debit.create.sequence-types-accepted',
        `create with sequenceType ${sequenceType}`,
        async () => expect(res).toSucceed(),
      );
      const status = res.json<{ transactionStatus?: unknown }>().transactionStatus;
      if (status !== undefined)
        expect(status, because(`the create of sequenceType ${sequenceType} answers transactionStatus RCVD`)).toBe(
          'RCVD',
        );
      await expect(res).toMatchSchema('direct-debit/payment-created');
    },
  );
}

/** The fields the create body schema marks required (schemas/direct-debit/payment-request.ts). */
const REQUIRED = directDebitPaymentRequestSchema.required;

test(
  'a body missing a field a pain.008 needs is refused with FORMAT_ERROR naming the field',
  req('direct-debit.create.required-fields'),
  async ({ directDebit }) => {
    for (const field of REQUIRED) {
      const body: Record<string, unknown> = { ...directDebit.body() };
      delete body[field];
      const res = await directDebit.create(body);
      await expect(res).toBeTppError(400, 'FORMAT_ERROR');
      const paths = (res.json<{ tppMessages: { path?: string; text?: string }[] }>().tppMessages ?? []).map(
        (m) => `${m.path ?? ''} ${m.text ?? ''}`,
      );
      expect(
        paths.some((p) => p.includes(field)),
        because(
          `the FORMAT_ERROR for a body without ${field} names ${field} in its path or text; got ${JSON.stringify(paths)}`,
        ),
      ).toBe(true);
    }
  },
);

for (const [header, details] of [
  ['PSU-IP-Address', req('direct-debit.create.psu-ip-address')],
  ['PSU-Corporate-ID', req('direct-debit.create.psu-corporate-id')],
] as const) {
  test(`a create without ${header} is refused with FORMAT_ERROR`, details, async ({ directDebit }) => {
    await expect(await directDebit.create(directDebit.body(), { headers: { [header]: null } })).toBeTppError(
      400,
      'FORMAT_ERROR',
    );
  });
}
