/**
 * The rules the specification states for several resources at once (endpoint section F: "The
 * operations use {base_url}/<resourceBasePath> for consent, payment or basket"; the state table of
 * an authorisation; the authorisation start response "(consent, payment, cancellation, basket)"),
 * each with, per resource, the requirement that judges it there or why it is not judged there.
 * A rule judged on some resources only is partly judged: the specification map says so at its
 * sentence (harness/reporter/specification.ts), and selftest/unit/resource-rules.spec.ts holds
 * the table to the operations table (every resource with an authorisation's operations is a
 * column), to the catalogue and to the tests (no cell left empty, no cell naming a requirement no
 * test judges).
 */

/**
 * Ends the "not judged" message of a check that judges a sentence only on the answers of one of
 * two readings and saw only the other in its test (e.g. Berlin Group's 204 where the sentence
 * describes a body): the specification map shows the clause as partly judged in the run.
 */
export const PARTLY_JUDGED_IN_RUN = '(partly judged)';

/** A resource whose authorisations section F and the state tables describe. */
export type RuleResource = 'consent' | 'payment' | 'cancellation' | 'basket';

export const RULE_RESOURCES: readonly RuleResource[] = ['consent', 'payment', 'cancellation', 'basket'];

/** The operations table's row id prefix of each resource's authorisation operations. */
export const OPERATION_PREFIX: Record<RuleResource, string> = {
  consent: 'consents.authorisations',
  payment: 'payments.authorisations',
  cancellation: 'payments.cancellation-authorisations',
  basket: 'signing-baskets.authorisations',
};

/** One cell: the requirement that judges the rule on the resource, or why it is not judged there. */
export type RuleCell = { judgedBy: string } | { notJudged: string };

/**
 * How a payment or cancellation cell is judged across the payment services and products: on every
 * claimed service × product (every product whose cancellation needs authorisation), or on the
 * first claimed one only, and why.
 */
export type ProductSpread = 'every' | { firstOnly: string };

/** Why a rule judged through an SCA flow is judged on the first claimed service × product only. */
const FIRST_ONLY_SCA =
  "the authorisation's operations are the same under every service and product (section F: `{base_url}/<resourceBasePath>`) and the payment's own rules (initiation, status, create authorisation, cancel) are judged on every claimed service × product; an SCA flow per product would multiply the run's SCA waits by the number of claimed products";

export interface ResourceRule {
  /** What the rule says, in a few words. */
  rule: string;
  /** The sentence (or table row) of the specification that states it, as the catalogue quotes it. */
  sentence: string;
  /** The operation of each resource the rule governs: the suffix of its row id (start, status, update). */
  operation: 'start' | 'status' | 'update';
  cells: Record<RuleResource, RuleCell>;
  /** The payment and cancellation cells across services and products. */
  products: Record<'payment' | 'cancellation', ProductSpread>;
}

const firstOnly = { payment: { firstOnly: FIRST_ONLY_SCA }, cancellation: { firstOnly: FIRST_ONLY_SCA } };

const CREATE_ROW =
  '| none | create authorisation (POST on the authorisations path) | resource exists | received | authorisationId and the list of SCA methods are returned |';
const START_ROW =
  '| received | start authorisation with authenticationMethodId | the id is one of the listed methods | started | response header `aspsp-sca-approach` is `DECOUPLED` or `REDIRECT`; challengeData or the `scaOAuth` link is returned |';

const everywhere = (judgedBy: string): Record<RuleResource, RuleCell> => ({
  consent: { judgedBy },
  payment: { judgedBy },
  cancellation: { judgedBy },
  basket: { judgedBy },
});

export const RESOURCE_RULES: ResourceRule[] = [
  {
    rule: 'a new authorisation returns its id and the list of SCA methods',
    sentence: CREATE_ROW,
    operation: 'start',
    cells: {
      consent: { judgedBy: 'authorisations.create.response' },
      payment: { judgedBy: 'payments.authorisations.create' },
      cancellation: { judgedBy: 'payments.cancel.authorisation-sca-methods' },
      basket: { judgedBy: 'signing-baskets.authorisation.sca-methods' },
    },
    products: { payment: 'every', cancellation: { firstOnly: FIRST_ONLY_SCA } },
  },
  {
    rule: 'an authorisation is created only on a resource that exists',
    sentence: CREATE_ROW,
    operation: 'start',
    cells: everywhere('authorisations.create.unknown-resource'),
    products: { payment: 'every', cancellation: 'every' },
  },
  {
    rule: 'the start of an authorisation (POST) answers the authorisation start response',
    sentence:
      '| Authorisation start response (consent, payment, cancellation, basket) | scaStatus, authorisationId, psuMessage, `_links.scaStatus` |',
    operation: 'start',
    cells: {
      consent: { judgedBy: 'authorisations.create.start-response' },
      payment: { judgedBy: 'payments.authorisations.start-response' },
      cancellation: { judgedBy: 'payments.authorisations.start-response' },
      basket: { judgedBy: 'signing-baskets.authorisation.start' },
    },
    products: firstOnly,
  },
  {
    rule: 'the SCA status read answers scaStatus',
    sentence: '**SCA status**: GET `<resourceBasePath>/authorisations/<authorisationId>`. Response: `scaStatus`.',
    operation: 'status',
    cells: {
      consent: { judgedBy: 'authorisations.status.ends' },
      payment: { judgedBy: 'payments.authorisations.sca-status' },
      cancellation: { judgedBy: 'payments.cancel.authorisations' },
      basket: { judgedBy: 'signing-baskets.authorisation.sca-status' },
    },
    products: { payment: { firstOnly: FIRST_ONLY_SCA }, cancellation: 'every' },
  },
  {
    rule: 'a started authorisation never reads an earlier status again',
    sentence: 'The client polls the SCA status until `finalised` or `failed`.',
    operation: 'status',
    cells: everywhere('authorisations.status.no-move-back'),
    products: firstOnly,
  },
  {
    rule: 'a start with an offered method is answered started, with aspsp-sca-approach and challengeData',
    sentence: START_ROW,
    operation: 'update',
    cells: {
      consent: { judgedBy: 'authorisations.start.decoupled' },
      payment: { judgedBy: 'payments.authorisations.start' },
      cancellation: { judgedBy: 'payments.authorisations.start' },
      basket: {
        notJudged:
          "a basket's start is a step of its checks (SCA status, auto-start token, QR): a refused start blocks them, naming authorisations.start.decoupled, but no requirement judges the answer's aspsp-sca-approach header and scaStatus on a basket",
      },
    },
    products: firstOnly,
  },
  {
    rule: 'the same-device start gives the auto-start token first in challengeData.data',
    sentence: 'The first element of `challengeData.data` is the auto-start token.',
    operation: 'update',
    cells: everywhere('authorisations.decoupled.autostart-token'),
    products: firstOnly,
  },
  {
    rule: 'the animated QR token is valid for one second',
    sentence: 'The code is valid for 1 second.',
    operation: 'status',
    cells: everywhere('authorisations.qr.token-rotates'),
    products: firstOnly,
  },
  {
    rule: 'the animated QR image is a base64 PNG data URI, with psuMessage',
    sentence: '`mbid_animated_qr_image`: `challengeData.image` is a base64 PNG data URI to display to the PSU.',
    operation: 'update',
    cells: everywhere('authorisations.qr.image'),
    products: firstOnly,
  },
  {
    rule: 'update PSU data answers the decoupled response',
    sentence:
      '| Update PSU data response (decoupled) | scatransactionStatus (spelled so), psuMessage, `_links.scaStatus` |',
    operation: 'update',
    cells: {
      consent: { judgedBy: 'authorisations.update-psu-data.decoupled' },
      payment: { judgedBy: 'payments.authorisations.update-psu-data' },
      cancellation: { judgedBy: 'payments.cancel.update-psu-data' },
      basket: { judgedBy: 'signing-baskets.authorisation.update-psu-data' },
    },
    products: firstOnly,
  },
];

/** The resources a rule is not judged on, each with why. */
export const notJudgedOn = (r: ResourceRule): { resource: RuleResource; why: string }[] =>
  RULE_RESOURCES.flatMap((resource) => {
    const cell = r.cells[resource];
    return 'notJudged' in cell ? [{ resource, why: cell.notJudged }] : [];
  });

/** The table of rule × resource as markdown: each cell the requirement that judges it, or "not judged" and why. */
export function resourceRuleTable(rules: ResourceRule[] = RESOURCE_RULES): string {
  const head = `| Rule | ${RULE_RESOURCES.join(' | ')} |`;
  const line = `|---|${RULE_RESOURCES.map(() => '---').join('|')}|`;
  const rows = rules.map((r) => {
    const cells = RULE_RESOURCES.map((res) => {
      const c = r.cells[res];
      if (!('judgedBy' in c)) return `not judged, because ${c.notJudged}`;
      const spread = res === 'payment' || res === 'cancellation' ? r.products[res] : undefined;
      const across =
        spread === undefined
          ? ''
          : spread === 'every'
            ? ' on every claimed service × product'
            : ' on the first claimed service × product only (see below)';
      return `\`${c.judgedBy}\`${across}`;
    });
    return `| ${r.rule} | ${cells.join(' | ')} |`;
  });
  const reasons = [
    ...new Set(
      rules.flatMap((r) =>
        (['payment', 'cancellation'] as const).flatMap((res) => {
          const spread = r.products[res];
          return 'judgedBy' in r.cells[res] && spread !== 'every' ? [spread.firstOnly] : [];
        }),
      ),
    ),
  ];
  const below = reasons.map((why) => `A cell judged on the first claimed service × product only: ${why}.`);
  return [head, line, ...rows, ...(below.length ? ['', ...below] : [])].join('\n');
}
