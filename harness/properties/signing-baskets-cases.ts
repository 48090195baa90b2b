import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { fieldRules } from './schema-fields.js';

/*
 * Create-basket bodies generated from their request schema (schemas/signing-baskets/basket-request.ts,
 * read by schema-fields.ts): valid ones (paymentIds of one to three payments of this TPP, not yet
 * authorised, within the schema's minItems), and ones that break exactly one rule: paymentIds left
 * out or under its minItems (signing-baskets.create.empty), or one payment id among the known ones
 * that names no payment (signing-baskets.create.unknown-payment), at any position.
 */

const SCHEMA = 'signing-baskets/basket-request' as const;

/** A valid case: how many new payments the basket holds. */
export interface BasketCase {
  payments: number;
}

/** The most payments a generated basket holds (the schema sets no maximum). */
const MOST = 3;

const paymentIdsRule = () => fieldRules(SCHEMA).find((r) => r.path === 'paymentIds');

/** The largest basket generated: a read-back tries it first (a bank that keeps only some of the ids). */
export const largestBasket = (): BasketCase => ({ payments: MOST });

/** Valid cases: one to three payments, from the schema's minItems. */
export function basketCases(): fc.Arbitrary<BasketCase> {
  return fc.record({ payments: fc.integer({ min: paymentIdsRule()?.minItems ?? 1, max: MOST }) });
}

/** One rule broken: the known payments the body holds and what breaks it. */
export interface BrokenBasket {
  /** New payments of this TPP in the body (none for a body without paymentIds). */
  payments: number;
  /** paymentIds left out, paymentIds under its minItems, or an unknown id put at `at` among the known ones. */
  broken: 'left out' | 'under minItems' | 'unknown payment';
  at?: number;
}

/** The breaks of each rule, by the requirement that judges it. */
export function basketBreaks(requirement: string): fc.Arbitrary<BrokenBasket> | undefined {
  const rule = paymentIdsRule();
  switch (requirement) {
    case 'signing-baskets.create.empty': {
      const breaks: fc.Arbitrary<BrokenBasket>[] = [];
      if (rule?.required) breaks.push(fc.constant({ payments: 0, broken: 'left out' as const }));
      if (rule?.minItems) breaks.push(fc.constant({ payments: 0, broken: 'under minItems' as const }));
      return breaks.length ? fc.oneof(...breaks) : undefined;
    }
    case 'signing-baskets.create.unknown-payment':
      return fc
        .integer({ min: 0, max: MOST - 1 })
        .chain((payments) =>
          fc
            .integer({ min: 0, max: payments })
            .map((at): BrokenBasket => ({ payments, broken: 'unknown payment', at })),
        );
    default:
      return undefined;
  }
}

/** Every case of a basket without payments the schema's rule of paymentIds names (left out where required, empty under minItems). */
export function everyEmptyCase(): BrokenBasket[] {
  const rule = paymentIdsRule();
  return [
    ...(rule?.required ? [{ payments: 0, broken: 'left out' as const }] : []),
    ...(rule?.minItems ? [{ payments: 0, broken: 'under minItems' as const }] : []),
  ];
}

/**
 * Every case of an unknown payment among known ones (none to two known, the unknown one at each
 * position): the space is small enough to name, so each is tried first, not left to the draw.
 */
export const everyUnknownPaymentCase = (): BrokenBasket[] =>
  Array.from({ length: MOST }, (_, payments) =>
    Array.from({ length: payments + 1 }, (_, at): BrokenBasket => ({ payments, broken: 'unknown payment', at })),
  ).flat();

/** The body of a broken case over the ids of its known payments (under minItems: the schema's minimum less one, none). */
export function brokenBasketBody(b: BrokenBasket, known: string[]): Record<string, unknown> {
  if (b.broken === 'left out') return {};
  if (b.broken === 'under minItems')
    return { paymentIds: known.slice(0, Math.max(0, (paymentIdsRule()?.minItems ?? 1) - 1)) };
  const ids = [...known];
  ids.splice(b.at ?? 0, 0, randomUUID());
  return { paymentIds: ids };
}
