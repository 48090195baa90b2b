import type { AnySchemaObject, Options } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { accountsAccountCompleteSchema } from './accounts/account-complete.js';
import { accountsAccountDetailSchema } from './accounts/account-detail.js';
import { accountsAccountListSchema } from './accounts/account-list.js';
import { accountsAccountSchema } from './accounts/account.js';
import { accountsAmountSchema } from './accounts/amount.js';
import { accountsBalanceCompleteSchema } from './accounts/balance-complete.js';
import { accountsBalanceTypeSchema } from './accounts/balance-type.js';
import { accountsBalanceSchema } from './accounts/balance.js';
import { accountsBalancesSchema } from './accounts/balances.js';
import { accountsTransactionDetailsSchema } from './accounts/transaction-details.js';
import { accountsTransactionCompleteSchema } from './accounts/transaction-complete.js';
import { accountsTransactionListSchema } from './accounts/transaction-list.js';
import { accountsTransactionSchema } from './accounts/transaction.js';
import { authorisationsAuthorisationCreatedCompleteSchema } from './authorisations/authorisation-created-complete.js';
import { authorisationsAuthorisationCreatedSchema } from './authorisations/authorisation-created.js';
import { authorisationsAuthorisationListSchema } from './authorisations/authorisation-list.js';
import { authorisationsAuthorisationStartCompleteSchema } from './authorisations/authorisation-start-complete.js';
import { authorisationsAuthorisationStartSchema } from './authorisations/authorisation-start.js';
import { authorisationsAuthorisationStartedCompleteSchema } from './authorisations/authorisation-started-complete.js';
import { authorisationsAuthorisationStartedSchema } from './authorisations/authorisation-started.js';
import { authorisationsAuthorisationStartedRedirectSchema } from './authorisations/authorisation-started-redirect.js';
import { authorisationsChallengeDataSchema } from './authorisations/challenge-data.js';
import { authorisationsScaMethodCompleteSchema } from './authorisations/sca-method-complete.js';
import { authorisationsScaMethodSchema } from './authorisations/sca-method.js';
import { authorisationsScaStatusSchema } from './authorisations/sca-status.js';
import { authorisationsStartRequestSchema } from './authorisations/start-request.js';
import { authorisationsUpdatePsuDataDecoupledCompleteSchema } from './authorisations/update-psu-data-decoupled-complete.js';
import { authorisationsUpdatePsuDataDecoupledSchema } from './authorisations/update-psu-data-decoupled.js';
import { commonAccountReferenceSchema } from './common/account-reference.js';
import { commonAmountSchema } from './common/amount.js';
import { commonBicfiSchema } from './common/bicfi.js';
import { commonErrorSchema } from './common/error.js';
import { commonIbanSchema } from './common/iban.js';
import { commonLinkSchema } from './common/link.js';
import { commonLinksSchema } from './common/links.js';
import { commonTppMessageSchema } from './common/tpp-message.js';
import { consentsAccountAccessSchema } from './consents/account-access.js';
import { consentsConsentCreatedCompleteSchema } from './consents/consent-created-complete.js';
import { consentsConsentCreatedSchema } from './consents/consent-created.js';
import { consentsConsentRequestSchema } from './consents/consent-request.js';
import { consentsConsentStatusSchema } from './consents/consent-status.js';
import { consentsConsentCompleteSchema } from './consents/consent-complete.js';
import { consentsConsentSchema } from './consents/consent.js';
import { directDebitAddressSchema } from './direct-debit/address.js';
import { directDebitConfirmRequestSchema } from './direct-debit/confirm-request.js';
import { directDebitConfirmResponseSchema } from './direct-debit/confirm-response.js';
import { directDebitPaymentCreatedCompleteSchema } from './direct-debit/payment-created-complete.js';
import { directDebitPaymentCreatedSchema } from './direct-debit/payment-created.js';
import { directDebitPaymentRequestSchema } from './direct-debit/payment-request.js';
import { directDebitPaymentSchema } from './direct-debit/payment.js';
import { directoryAspspDetailCompleteSchema } from './directory/aspsp-detail-complete.js';
import { directoryAspspDetailSchema } from './directory/aspsp-detail.js';
import { directoryAspspListSchema } from './directory/aspsp-list.js';
import { directoryCityListSchema } from './directory/city-list.js';
import { directoryCitySchema } from './directory/city.js';
import { directoryCountryListSchema } from './directory/country-list.js';
import { directoryCountrySchema } from './directory/country.js';
import { oauthErrorSchema } from './oauth/error.js';
import { oauthTokenResponseCompleteSchema } from './oauth/token-response-complete.js';
import { oauthTokenResponseSchema } from './oauth/token-response.js';
import { paymentsBulkPaymentGiroSchema } from './payments/bulk-payment-giro.js';
import { paymentsBulkPaymentSchema } from './payments/bulk-payment.js';
import { paymentsCancellationAcceptedCompleteSchema } from './payments/cancellation-accepted-complete.js';
import { paymentsCancellationAcceptedSchema } from './payments/cancellation-accepted.js';
import { paymentsDefsSchema } from './payments/defs.js';
import { paymentsPaymentInitiatedCompleteSchema } from './payments/payment-initiated-complete.js';
import { paymentsPaymentInitiatedSchema } from './payments/payment-initiated.js';
import { paymentsPaymentStatusSchema } from './payments/payment-status.js';
import { paymentsPaymentStatusValuesSchema } from './payments/payment-status-values.js';
import { paymentsPaymentCompleteSchema } from './payments/payment-complete.js';
import { paymentsPaymentSchema } from './payments/payment.js';
import { paymentsPeriodicPaymentGiroSchema } from './payments/periodic-payment-giro.js';
import { paymentsPeriodicPaymentSchema } from './payments/periodic-payment.js';
import { paymentsSinglePaymentGiroSchema } from './payments/single-payment-giro.js';
import { paymentsSinglePaymentSchema } from './payments/single-payment.js';
import { signingBasketsBasketCreatedCompleteSchema } from './signing-baskets/basket-created-complete.js';
import { signingBasketsBasketCreatedSchema } from './signing-baskets/basket-created.js';
import { signingBasketsBasketRequestSchema } from './signing-baskets/basket-request.js';
import { signingBasketsBasketStatusSchema } from './signing-baskets/basket-status.js';
import { signingBasketsBasketCompleteSchema } from './signing-baskets/basket-complete.js';
import { signingBasketsBasketSchema } from './signing-baskets/basket.js';

/*
 * The JSON Schemas (draft 2020-12) of the API's requests and responses, shared by the suite and the
 * sandbox. Each module under schemas/ exports one schema object `as const`: the one source of both
 * its validation (ajv, by its $id) and its TypeScript type (SchemaType, by json-schema-to-ts).
 * This module lists them all; a unit test (selftest/unit/schemas.spec.ts) checks that every module
 * under schemas/ is listed, but for this one and payments/products.ts (the payment services and
 * products, one list of each).
 */

/**
 * Every schema's $id is SCHEMA_BASE + its id + ".json"; its id, "<area>/<name>", is its module's path
 * under schemas/ ("payments/defs" is schemas/payments/defs.ts). Their $refs are relative to those $ids
 * ("../common/amount.json").
 */
export const SCHEMA_BASE = 'https://obg-conformance.dev/schemas/';

/** Every schema of schemas/, each with its $id: what ajv's (or Fastify's) addSchema takes, one by one. */
export const SCHEMAS = [
  accountsAccountCompleteSchema,
  accountsAccountDetailSchema,
  accountsAccountListSchema,
  accountsAccountSchema,
  accountsAmountSchema,
  accountsBalanceCompleteSchema,
  accountsBalanceTypeSchema,
  accountsBalanceSchema,
  accountsBalancesSchema,
  accountsTransactionDetailsSchema,
  accountsTransactionCompleteSchema,
  accountsTransactionListSchema,
  accountsTransactionSchema,
  authorisationsAuthorisationCreatedCompleteSchema,
  authorisationsAuthorisationCreatedSchema,
  authorisationsAuthorisationListSchema,
  authorisationsAuthorisationStartCompleteSchema,
  authorisationsAuthorisationStartSchema,
  authorisationsAuthorisationStartedCompleteSchema,
  authorisationsAuthorisationStartedSchema,
  authorisationsAuthorisationStartedRedirectSchema,
  authorisationsChallengeDataSchema,
  authorisationsScaMethodCompleteSchema,
  authorisationsScaMethodSchema,
  authorisationsScaStatusSchema,
  authorisationsStartRequestSchema,
  authorisationsUpdatePsuDataDecoupledCompleteSchema,
  authorisationsUpdatePsuDataDecoupledSchema,
  commonAccountReferenceSchema,
  commonAmountSchema,
  commonBicfiSchema,
  commonErrorSchema,
  commonIbanSchema,
  commonLinkSchema,
  commonLinksSchema,
  commonTppMessageSchema,
  consentsAccountAccessSchema,
  consentsConsentCreatedCompleteSchema,
  consentsConsentCreatedSchema,
  consentsConsentRequestSchema,
  consentsConsentStatusSchema,
  consentsConsentCompleteSchema,
  consentsConsentSchema,
  directDebitAddressSchema,
  directDebitConfirmRequestSchema,
  directDebitConfirmResponseSchema,
  directDebitPaymentCreatedCompleteSchema,
  directDebitPaymentCreatedSchema,
  directDebitPaymentRequestSchema,
  directDebitPaymentSchema,
  directoryAspspDetailCompleteSchema,
  directoryAspspDetailSchema,
  directoryAspspListSchema,
  directoryCityListSchema,
  directoryCitySchema,
  directoryCountryListSchema,
  directoryCountrySchema,
  oauthErrorSchema,
  oauthTokenResponseCompleteSchema,
  oauthTokenResponseSchema,
  paymentsBulkPaymentGiroSchema,
  paymentsBulkPaymentSchema,
  paymentsCancellationAcceptedCompleteSchema,
  paymentsCancellationAcceptedSchema,
  paymentsDefsSchema,
  paymentsPaymentInitiatedCompleteSchema,
  paymentsPaymentInitiatedSchema,
  paymentsPaymentStatusSchema,
  paymentsPaymentStatusValuesSchema,
  paymentsPaymentCompleteSchema,
  paymentsPaymentSchema,
  paymentsPeriodicPaymentGiroSchema,
  paymentsPeriodicPaymentSchema,
  paymentsSinglePaymentGiroSchema,
  paymentsSinglePaymentSchema,
  signingBasketsBasketCreatedCompleteSchema,
  signingBasketsBasketCreatedSchema,
  signingBasketsBasketRequestSchema,
  signingBasketsBasketStatusSchema,
  signingBasketsBasketCompleteSchema,
  signingBasketsBasketSchema,
] as const satisfies readonly AnySchemaObject[];

/** A schema's id: "<area>/<name>", e.g. "payments/payment-initiated". */
export type SchemaId = IdOf<(typeof SCHEMAS)[number]>;
type IdOf<S> = S extends { readonly $id: `${typeof SCHEMA_BASE}${infer Id}.json` } ? Id : never;

/** The ids of SCHEMAS, in their order. */
export const SCHEMA_IDS: readonly SchemaId[] = SCHEMAS.map((s) => idOf(s.$id));

/** The id of a schema $id ("https://…/schemas/payments/defs.json" is "payments/defs"). */
export function idOf($id: string): SchemaId {
  return $id.slice(SCHEMA_BASE.length, -'.json'.length) as SchemaId;
}

/** The $id of a schema id. */
export const schemaUri = (id: SchemaId | string): string => `${SCHEMA_BASE}${id}.json`;

// Both packages ship CommonJS; under ESM their default export sits one level down.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;

export type Ajv = InstanceType<typeof Ajv2020>;

/**
 * An ajv for draft 2020-12, with ajv-formats and every schema of SCHEMAS added (not compiled: ajv
 * compiles one on its first `getSchema(schemaUri(id))`, and a process uses few of them). Not strict,
 * so that annotations such as "title" and "description" pass; other options as given.
 */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv2020({ strict: false, ...options });
  addFormats(ajv);
  for (const schema of SCHEMAS) ajv.addSchema(schema);
  return ajv;
}

/** The schema of an id. */
export type SchemaOf<Id extends SchemaId> = Extract<
  (typeof SCHEMAS)[number],
  { readonly $id: `${typeof SCHEMA_BASE}${Id}.json` }
>;

/** The TypeScript type of what schema `Id` accepts, e.g. SchemaType<'accounts/balance'>. */
export type SchemaType<Id extends SchemaId> = TypeOfSchema<SchemaOf<Id>>;

/**
 * The TypeScript type of what a schema object accepts (json-schema-to-ts), its $refs resolved among
 * SCHEMAS. Two things are done to the schemas first, in the type system only:
 *
 * - Every $ref is made absolute. json-schema-to-ts finds a $ref by the $id of a schema given in
 *   `references`, but it resolves a relative $ref only against the folder of the schema it started
 *   from, without "..", and a "#…" $ref only in that schema, even inside another one it got to by a
 *   $ref. So in payments/defs, "../common/amount.json" reads "https://…/schemas/common/amount.json"
 *   and "#/$defs/date" "https://…/schemas/payments/defs.json#/$defs/date".
 * - An anyOf whose branches only name required fields ("one of iban, maskedPan or pan is present")
 *   is left out: json-schema-to-ts multiplies it out with allOf (81 object types for an account
 *   reference of consents/account-access), which slows the compiler and makes the types of the
 *   bodies the suite builds on purpose without them unusable. The type is the looser one, all of
 *   those fields optional; ajv checks the rule.
 */
export type TypeOfSchema<S extends JSONSchema> =
  ForTypes<S> extends infer R extends JSONSchema ? FromSchema<R, { references: References<typeof SCHEMAS> }> : never;

type References<T extends readonly unknown[]> = { -readonly [I in keyof T]: ForTypes<T[I]> };

type ForTypes<S> = S extends { readonly $id: infer Base extends string } ? Rewritten<S, Base> : S;

type Rewritten<S, Base extends string> = S extends readonly unknown[]
  ? { readonly [I in keyof S]: Rewritten<S[I], Base> }
  : S extends object
    ? {
        readonly [
          K in keyof S as K extends 'anyOf' ? (OnlyRequired<S[K]> extends true ? never : K) : K
        ]: K extends '$ref' ? (S[K] extends string ? Absolute<S[K], Base> : S[K]) : Rewritten<S[K], Base>;
      }
    : S;

/** Whether every branch of an anyOf is only `required`. */
type OnlyRequired<Branches> = Branches extends readonly { readonly required: readonly string[] }[]
  ? [OtherKeys<Branches[number]>] extends [never]
    ? true
    : false
  : false;
type OtherKeys<Branch> = Branch extends unknown ? Exclude<keyof Branch, 'required'> : never;

/** A $ref as an absolute URI, given the $id of the schema it is in. */
type Absolute<Ref extends string, Base extends string> = Ref extends `#${string}`
  ? `${Base}${Ref}`
  : Ref extends `${string}://${string}`
    ? Ref
    : Resolve<Folder<Base>, Ref>;

type Resolve<Dir extends string, Ref extends string> = Ref extends `../${infer Rest}`
  ? Resolve<Folder<Dir>, Rest>
  : Ref extends `./${infer Rest}`
    ? Resolve<Dir, Rest>
    : `${Dir}/${Ref}`;

/** "https://host/a/b.json" -> "https://host/a" */
type Folder<U extends string> = U extends `${infer Head}/${infer Tail}`
  ? Tail extends `${string}/${string}`
    ? `${Head}/${Folder<Tail>}`
    : Head
  : '';
