import type { FromSchema } from 'json-schema-to-ts';
import { PAYMENT_PRODUCTS, PAYMENT_SERVICES } from '../schemas/payments/products.js';
import { authentication } from './authentication.schema.js';
import {
  amountForms,
  combinedSessions,
  executionHorizonDays,
  leadTimeDays,
  nonBusinessDays,
  texts,
} from './value-spaces.schema.js';

/** A target profile: what a target claims (the types Profile and ProfileFile below derive from it). */
export const profileSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/profiles/profile.schema.json',
  title: 'Target profile: what a target claims to implement',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'features', 'psuContext', 'paths', 'timeouts'],
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    draft: {
      description:
        "true: the profile is obg-conformance init's draft, not yet reviewed. A run under it says so in the console and the report; remove it (or write false) once its claims are checked.",
      type: 'boolean',
    },
    features: {
      description:
        "Profile features the target claims. A requirement applies only when every feature it lists is claimed; the rest are reported as 'not claimed'.",
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', pattern: '^[a-z][a-z0-9-]*(\\.[a-z0-9-]+)*$' },
    },
    psuContext: {
      description: 'The PSU context scope the suite asks for by default (Authentication 2).',
      enum: ['private', 'corporate'],
    },
    paths: {
      description:
        'Paths under TARGET_BASE_URL, without a leading slash, for the parts the specification does not show. Only those of the claimed features are needed (aspsps, cities and countries when the profile claims directory).',
      type: 'object',
      additionalProperties: false,
      properties: {
        aspsps: { $ref: '#/$defs/path' },
        cities: { $ref: '#/$defs/path' },
        countries: { $ref: '#/$defs/path' },
        accounts: { $ref: '#/$defs/path', default: 'psd2/accountinformation/v1/accounts' },
        consents: { $ref: '#/$defs/path', default: 'psd2/consent/v1/consents' },
        payments: { $ref: '#/$defs/path', default: 'psd2/paymentinitiation/v1' },
        signingBaskets: { $ref: '#/$defs/path', default: 'psd2/paymentinitiation/v1/signing-baskets' },
        directDebitCreate: { $ref: '#/$defs/path', default: 'iso/beta/payments/sepa-direct-debit' },
        directDebitPayments: { $ref: '#/$defs/path', default: 'iso/payments' },
      },
    },
    consents: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        afterDelete: {
          description: 'What a deleted consent reads as: its status terminatedByTpp, or gone (403/404).',
          enum: ['terminatedByTpp', 'gone'],
          default: 'terminatedByTpp',
        },
        deleteAnswer: {
          description:
            "How delete consent answers (a 2xx either way): 'no-content' (no body: Berlin Group's 204), 'message-and-links' (a body with _links and optional tppMessages: section B, 'response uses the message-and-links structure'; the reference sandbox's), or 'either' (each answer judged as its own shape: a 204 with no body, or a message-and-links body; an empty 2xx other than 204 is neither). Default 'either'; a bank that wants the stricter check pins one.",
          enum: ['no-content', 'message-and-links', 'either'],
          default: 'either',
        },
        maxFrequencyPerDay: { type: 'integer', minimum: 1, default: 4 },
        combinedSessions,
        isolatedPsuIds: {
          description:
            "Two PSU ids the suite reserves for the recurring-consent checks (a new recurring consent expires the PSU's former one), so that those checks do not expire the consents of other tests. Absent: the target's PSU-ID.",
          type: 'array',
          minItems: 2,
          items: { type: 'string', minLength: 1 },
        },
        multilevelSca: {
          description:
            'Multilevel SCA for consents in a corporate context (feature consents.multilevel-sca): how many signers must each finalise an authorisation before a consent created with PSU-Corporate-ID in a corporate-scope token turns valid.',
          type: 'object',
          additionalProperties: false,
          required: ['signers'],
          properties: { signers: { type: 'integer', minimum: 2, maximum: 5 } },
        },
      },
    },
    accounts: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        deltaAccess: {
          description:
            'The target supports delta access on the transaction list (entryReferenceFrom, deltaList); the delta checks run only when true.',
          type: 'boolean',
          default: false,
        },
        isolatedPsuIds: {
          description:
            "Two PSU ids the accounts checks reserve for the expired-consent checks (a new recurring consent expires the PSU's former one), so that those checks end no other test's consent. Absent: the target's PSU-ID.",
          type: 'array',
          minItems: 2,
          items: { type: 'string', minLength: 1 },
        },
        readerPsuIds: {
          description:
            "PSU ids for the accounts checks that read one consent several times: each such check reads under a recurring consent (a one-off consent is for one access) of the PSU of its worker (the n-th id for the n-th parallel worker), and since a new recurring consent ends the PSU's former one, no two checks running at once share a PSU. Name at least as many as the run has workers. Absent: the target's PSU-ID, which is safe with one worker only.",
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', minLength: 1 },
        },
      },
    },
    payments: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        services: {
          type: 'array',
          uniqueItems: true,
          items: { enum: PAYMENT_SERVICES },
          default: [],
        },
        products: {
          type: 'array',
          uniqueItems: true,
          default: [],
          items: {
            enum: PAYMENT_PRODUCTS,
          },
        },
        startAuthorisationBody: {
          description:
            "The start-authorisation POST body the target expects: 'flow-guide' (no body) or 'operations-table' (non-empty psuData).",
          enum: ['flow-guide', 'operations-table'],
          default: 'flow-guide',
        },
        cancelAnswer: {
          description:
            "How cancel payment answers (a 2xx either way): 'no-content' (Berlin Group: 204 with no body, or 202 with transactionStatus and links when the cancellation needs authorisation), 'status-and-links' (section D: always a body with transactionStatus and links; the reference sandbox's) or 'either' (each answer judged as the shape of the reading it gives; an empty 2xx other than 204 is neither). Default 'either'.",
          enum: ['no-content', 'status-and-links', 'either'],
          default: 'either',
        },
        cancellationAuthorisation: {
          description:
            'Products whose cancellation needs an authorisation (202 with startAuthorisation); the others cancel at once (204 or 202 without it).',
          type: 'array',
          uniqueItems: true,
          default: [],
          items: {
            enum: PAYMENT_PRODUCTS,
          },
        },
        executedOnAuthorisation: {
          description:
            'Services whose payments, with no requestedExecutionDate, are executed as soon as they are authorised, and so are past their cancellation time limit (feature payments.executed-on-authorisation).',
          type: 'array',
          uniqueItems: true,
          items: { enum: PAYMENT_SERVICES },
          default: [],
        },
        multilevelSca: {
          description:
            'Multilevel SCA in a corporate context (feature payments.multilevel-sca): how many signers must each finalise an authorisation.',
          type: 'object',
          additionalProperties: false,
          required: ['signers'],
          properties: { signers: { type: 'integer', minimum: 2, maximum: 5 } },
          default: { signers: 2 },
        },
        executionHorizonDays,
        nonBusinessDays,
        amountForms,
        giroCreditor: {
          description:
            'How a swedish-giro payment names its creditor: creditorGiro (vendor) or the generic creditorAccount (with a bban giro number).',
          enum: ['creditorGiro', 'creditorAccount'],
          default: 'creditorGiro',
        },
        accounts: {
          description:
            "The test data the bank accepts in each payment product's bodies, one place for every payment body the suite sends (initiation, bulk, periodic, basket payments, multilevel, the operations' checks): the debtor's account, the creditor's account, the creditor's agent and the instructed currency (instructedAmount.currency). A product or field left out gets the suite's generated data: a Swedish IBAN in EUR paying a German, Finnish or Dutch IBAN in EUR (sepa-credit-transfers), a Swedish bban with a clearing number in SEK both ways (domestic), a Swedish IBAN in SEK paying a British IBAN in USD, GBP or NOK (international, international-tp), a Swedish IBAN in SEK paying a bankgiro or plusgiro number in SEK (swedish-giro; its creditorAccount is used only under giroCreditor creditorAccount). An IBAN's check digits are checked when the profile is loaded.",
          type: 'object',
          additionalProperties: false,
          properties: {
            'sepa-credit-transfers': { $ref: '#/$defs/productAccounts' },
            domestic: { $ref: '#/$defs/productAccounts' },
            international: { $ref: '#/$defs/productAccounts' },
            'international-tp': { $ref: '#/$defs/productAccounts' },
            'swedish-giro': { $ref: '#/$defs/productAccounts' },
          },
        },
      },
    },
    sca: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        approaches: {
          description:
            'The SCA approaches the bank offers. Where given, the redirect and decoupled checks run exactly for the approaches listed: REDIRECT goes with the feature sca.redirect and DECOUPLED with sca.decoupled, and a listed approach without its feature (or a feature without its approach) stops the run naming this field. EMBEDDED has no checks (the specification shows no embedded flow).',
          type: 'array',
          uniqueItems: true,
          items: { enum: ['REDIRECT', 'DECOUPLED', 'EMBEDDED'] },
        },
        methods: { type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 } },
        psuAgent: {
          description:
            "How the suite plays the PSU: 'form' fills the bank's approval form over HTTP (the reference sandbox's); 'browser' drives a real browser (Debian's chromium) through the steps of sca.browser; 'manual' prints the authorise URL (or the decoupled QR code and app link) for a real person and waits for the SCA to end within the SCA timeout; 'none': the redirect flow is not played (its checks are not claimed).",
          enum: ['form', 'browser', 'manual', 'none'],
          default: 'form',
        },
        browser: {
          description:
            "The browser agent's script on the bank's login page (sca.psuAgent 'browser'): steps to approve and, optionally, to deny. Each step fills a selector with the value of a named .env key (a secret, never in a profile, never shown: typed into password fields or masked in the screenshots), clicks a selector, or waits for the redirect to the TPP's redirect URI (the agent always waits for it after the last step).",
          type: 'object',
          additionalProperties: false,
          required: ['approve'],
          properties: {
            approve: { $ref: '#/$defs/browserSteps' },
            deny: { $ref: '#/$defs/browserSteps' },
          },
        },
        finaliseWithinMs: {
          description:
            "Bound within which a decoupled SCA must end on its own (the specification's 'within a few seconds').",
          type: 'integer',
          minimum: 100,
        },
        failingPsuId: {
          description: 'A test PSU id whose SCA the target fails, so the failure path can be driven.',
          type: 'string',
        },
      },
    },
    directDebit: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        consentScope: {
          description:
            "The API scope of the token the direct debit consent is created and authorised with, in the corporate context: 'accountinformation' (the consent's resourceScope, Resource variables; the reference sandbox's) or 'paymentinitiation' (section H: 'The token scope is `paymentinitiation corporate`'). Default 'accountinformation'.",
          enum: ['accountinformation', 'paymentinitiation'],
          default: 'accountinformation',
        },
        leadTimeDays,
        rejectedMandateId: {
          description:
            'A test mandate id whose collection the target rejects (RJCT), so the status check has something to find.',
          type: 'string',
        },
        creditor: {
          description:
            "The creditor the suite collects for (a TPP's own creditor where the target checks it); default: a generated Dutch creditor with a valid SEPA creditor identifier.",
          type: 'object',
          additionalProperties: false,
          required: ['name', 'iban', 'bic', 'creditorId'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 70 },
            iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{1,30}$' },
            bic: { type: 'string', pattern: '^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$' },
            creditorId: { type: 'string', minLength: 5, maxLength: 35 },
          },
        },
        files: {
          description:
            'Where the target lets a sandbox user fetch a generated pain.008 file by its reference (feature direct-debit.files): the path with {reference}, and the pattern that finds the reference in the FILE_UPLOADED text.',
          type: 'object',
          additionalProperties: false,
          required: ['path', 'referencePattern'],
          properties: {
            path: { type: 'string', pattern: '\\{reference\\}' },
            referencePattern: { type: 'string', minLength: 1 },
          },
        },
      },
    },
    signingBaskets: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        afterDelete: {
          description:
            "What a deleted signing basket reads as: 'gone' (the read is refused, Berlin Group's 403 or 404; the reference sandbox's), 'cancelled' (still readable, transactionStatus CANC, as some implementations keep it) or 'either' (each judged as its own shape). Default 'either'.",
          enum: ['gone', 'cancelled', 'either'],
          default: 'either',
        },
      },
    },
    authentication,
    tokens: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        accountReads: {
          description:
            "The token the suite sends on account reads: 'application' (client credentials, as everywhere else: the specification's code-exchange token 'need not be stored or used in later calls'; the reference sandbox's) or 'psu' (the target requires the PSU's token: the suite authorises each consent it reads under in the redirect flow, exchanges the code and sends that token on the consent's reads). Payment cancellations still use the application token (the payments they cancel were never authorised, so no PSU token exists for them). 'psu' brings the feature tokens.psu-reads (harness/config/profile.ts, OPTION_FEATURES), under which the suite judges that the application token is refused. Default 'application'.",
          enum: ['application', 'psu'],
          default: 'application',
        },
        paymentReads: {
          description:
            "The token the suite sends on the read, status and cancel of a payment it has authorised: 'application' (client credentials, as everywhere else; the reference sandbox's) or 'psu' (the target requires, once a payment's SCA is done, the PSU's token of that payment: the suite authorises the reference PSU's payments in the redirect flow, exchanges the code with X-PaymentId and X-PaymentAuthorisationId, and sends that token on the payment's read, status and cancel). A payment not authorised this way (before its SCA, a failing PSU, a multilevel signer, a payment authorised through a basket, a cancellation authorisation) is read with the application token. Default 'application'.",
          enum: ['application', 'psu'],
          default: 'application',
        },
      },
    },
    texts,
    signatures: {
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: { mandated: { type: 'boolean', default: false } },
    },
    limits: {
      description:
        "How hard the suite may press the target (a shared, rate-limited sandbox; the specification: 'Rate limits, quotas and request size limits: not shown'). Bounds hold across the run's parallel workers, token calls and retries included. With limits set, a 429 that is not ACCESS_EXCEEDED is a rate limit: the suite waits its Retry-After and retries, and one that persists is a broken verdict ('rate limited'), never a failed rule. Absent: no bound, and a 429 is an answer like any other.",
      type: 'object',
      additionalProperties: false,
      properties: {
        requestsPerSecond: {
          description: 'Most requests the whole run starts in any one second (spaced evenly).',
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 10000,
        },
        concurrency: {
          description: 'Most requests in flight at once, across all workers.',
          type: 'integer',
          minimum: 1,
          maximum: 1000,
        },
        retries: {
          description: 'Retries of a rate-limited request (429) before it is judged broken. Default 2.',
          type: 'integer',
          minimum: 0,
          maximum: 10,
          default: 2,
        },
        maxRetryAfterMs: {
          description:
            'Longest wait for one retry; a Retry-After beyond it is judged broken at once. Without Retry-After the wait is 1 s, doubling per retry, within this bound. Default 5000.',
          type: 'integer',
          minimum: 0,
          maximum: 60000,
          default: 5000,
        },
      },
    },
    timeouts: {
      type: 'object',
      additionalProperties: false,
      required: ['requestMs', 'scaMs'],
      properties: {
        requestMs: {
          description: 'Per request; a slower answer is a broken verdict.',
          type: 'integer',
          minimum: 100,
          maximum: 600000,
        },
        scaMs: {
          description: 'Longest wait for an SCA to end.',
          type: 'integer',
          minimum: 100,
          maximum: 600000,
        },
      },
    },
    oauth: {
      description:
        'Where the bank serves OAuth2 (endpoint section G), under TARGET_AUTH_URL, without a leading slash. Defaults: connect/token and connect/authorize.',
      type: 'object',
      default: {},
      additionalProperties: false,
      properties: {
        tokenPath: { $ref: '#/$defs/path', default: 'connect/token' },
        authorizePath: { $ref: '#/$defs/path', default: 'connect/authorize' },
      },
    },
    requiredHeaders: {
      description:
        "Headers the bank requires on every call beside the specification's, sent by the suite on each request: a value from a .env key ('fromEnv') or one generated per request ('generated': 'date' is an HTTP date, RFC 9110; 'uuid' a fresh UUID).",
      type: 'array',
      default: [],
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        oneOf: [{ required: ['fromEnv'] }, { required: ['generated'] }],
        properties: {
          name: { type: 'string', pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" },
          fromEnv: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' },
          generated: { enum: ['date', 'uuid'] },
        },
      },
    },
  },
  $defs: {
    path: { type: 'string', pattern: '^[^/].*[^/]$' },
    accountReference: {
      description:
        'An account reference (Account reference): an iban, or a bban with the clearingNumber where the product needs one, and optionally its currency (ISO 4217).',
      type: 'object',
      additionalProperties: false,
      oneOf: [{ required: ['iban'] }, { required: ['bban'] }],
      properties: {
        iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{1,30}$' },
        bban: { type: 'string', pattern: '^[A-Za-z0-9]{1,30}$' },
        clearingNumber: { type: 'string', minLength: 1, maxLength: 35 },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      },
    },
    productAccounts: {
      description: "One payment product's test data (payments.accounts); each field left out is generated.",
      type: 'object',
      additionalProperties: false,
      properties: {
        debtorAccount: { $ref: '#/$defs/accountReference' },
        creditorAccount: { $ref: '#/$defs/accountReference' },
        creditorAgent: {
          description: "The creditor's bank (BICFI), sent with the creditor's account where the product carries one.",
          type: 'string',
          pattern: '^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$',
        },
        currency: {
          description: 'The instructed currency (instructedAmount.currency, ISO 4217).',
          type: 'string',
          pattern: '^[A-Z]{3}$',
        },
      },
    },
    browserSteps: {
      type: 'array',
      minItems: 1,
      items: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['fill', 'from'],
            properties: {
              fill: { description: 'A Playwright selector of the field.', type: 'string', minLength: 1 },
              from: { description: 'The .env key whose value is typed.', type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' },
            },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['click'],
            properties: { click: { description: 'A Playwright selector to click.', type: 'string', minLength: 1 } },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['waitForRedirect'],
            properties: { waitForRedirect: { const: true } },
          },
        ],
      },
    },
  },
} as const;

/**
 * A target profile as the suite reads it (harness/config/profile.ts, loadProfile): what the target
 * claims, with the schema's `default`s applied, so every field that has a default is there. Its
 * readers take a field as it is; a default lives here, in the schema, and nowhere else.
 */
export type Profile = FromSchema<typeof profileSchema>;

/** A target profile as its file says it: the fields that have a default may be left out. */
export type ProfileFile = FromSchema<typeof profileSchema, { keepDefaultedPropertiesOptional: true }>;

/** One payment product's test data (payments.accounts). */
export type ProductAccounts = NonNullable<NonNullable<NonNullable<Profile['payments']>['accounts']>['domestic']>;

/**
 * Options of the profile a self-proof variant runs under instead of the target's own, section by
 * section (a variant's `claims`: e.g. the other reading of a contradiction in the specification).
 * Written as a profile's file is (defaults may be left out); each section merges over the loaded one.
 */
export type ProfileClaims = {
  [K in keyof ProfileFile]?: ProfileFile[K] extends object ? Partial<ProfileFile[K]> : ProfileFile[K];
};
