import { rewriteJson } from '../hooks.js';
import type { Variant } from './variant.js';

const PAYMENT = /^\/iso\/payments\/:paymentId$/;

/** SEPA direct debit: the readings the specification leaves open. */
const variants: Variant[] = [
  {
    id: 'direct-debit.debtor-address-as-string',
    description:
      'get payment answers debtorAddress as one string carrying its values (the field table reading), not as the object sent',
    allows:
      '| debtorAddress | object | same shape as creditorAddress. The field table types it as string, the example as object | (Resources > SEPA direct debit payment)',
    // The robustness properties read a text back where the read gives it at its path only.
    concerns: ['direct-debit.read-back.debtor-address', 'direct-debit.get.fields', 'direct-debit.robustness.any-input'],
    warns: [],
    install: (app) =>
      rewriteJson(app, { method: 'GET', route: PAYMENT }, (b: { debtorAddress?: unknown }) => {
        const a = b.debtorAddress as Record<string, string | undefined> | undefined;
        if (a && typeof a === 'object')
          b.debtorAddress = [
            `${a.street ?? ''} ${a.buildingNumber ?? ''}`,
            `${a.postalCode ?? ''} ${a.city ?? ''}`,
            a.country,
          ]
            .map((part) => part?.trim())
            .filter(Boolean)
            .join(', ');
      }),
  },
];

export default variants;
