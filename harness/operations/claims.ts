import type { Profile } from '../config/profile.js';
import { COMBINATIONS, firstClaimed, unclaimed, type Claimant, type Combination } from '../areas/payments.js';
import { OPERATIONS, type Operation, type OperationGroup } from './table.js';

// Which operations the profile claims, and the payment combination each is called on.

/** Why the profile does not claim an operation, or undefined when it does. */
export function unclaimedOperation(profile: Profile, o: Operation): string | undefined {
  const missing = o.features.filter((f) => !profile.features.includes(f));
  return missing.length ? `not claimed: the profile does not claim ${missing.join(', ')}` : undefined;
}

/** The payment combination the payment operations are called on (the first claimed), and the one for cancellation authorisations. */
export function paymentCombination(target: Claimant, o: Operation): Combination | undefined {
  if (o.id.startsWith('payments.cancellation-authorisations.')) {
    const needs = target.profile.payments.cancellationAuthorisation;
    return COMBINATIONS.find((c) => !unclaimed(target, c) && needs.includes(c.product));
  }
  return firstClaimed(target);
}

/** Every claimed combination a payment operation can be called on (a cancellation's: the products the profile names for it). */
export function paymentCombinations(target: Claimant, o: Operation): Combination[] {
  const claimed = COMBINATIONS.filter((c) => !unclaimed(target, c));
  if (!o.id.startsWith('payments.cancellation-authorisations.')) return claimed;
  const needs = target.profile.payments.cancellationAuthorisation;
  return claimed.filter((c) => needs.includes(c.product));
}

/** The claimed operations of a group (those a rule applies to), with why the others are left out. */
export function claimedOperations(
  target: Claimant,
  group: OperationGroup,
  filter: (o: Operation) => boolean = () => true,
): { claimed: Operation[]; skipped: string[] } {
  const claimed: Operation[] = [];
  const skipped: string[] = [];
  for (const o of OPERATIONS.filter((x) => x.group === group && filter(x))) {
    const why =
      unclaimedOperation(target.profile, o) ??
      (o.group === 'payments' && !paymentCombination(target, o)
        ? 'not claimed: no claimed payment service and product for it'
        : undefined);
    if (why) skipped.push(`${o.name}: ${why}`);
    else claimed.push(o);
  }
  return { claimed, skipped };
}

/**
 * The operation the common rules are shown on (headers.*: X-Request-ID, Authorization, error
 * bodies, names, Content-Type): a read the profile claims, the directory's first (it needs no
 * resource), else a consent's, a payment's, a basket's or a direct debit's status. Undefined when
 * the profile claims none of them.
 */
export function commonOperation(target: Claimant): Operation | undefined {
  const order = [
    'directory.list-banks',
    'consents.status',
    'payments.status',
    'signing-baskets.status',
    'direct-debit.get',
  ];
  return order
    .map((id) => OPERATIONS.find((o) => o.id === id)!)
    .find((o) => claimedOperations(target, o.group, (x) => x.id === o.id).claimed.length > 0);
}
