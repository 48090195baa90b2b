import type { Fault } from './fault.js';

const faults: Fault[] = [
  {
    id: 'consents.multilevel-valid-after-first-signer',
    description:
      'a corporate consent turns valid after the first signer\'s SCA, under a profile claiming multilevel SCA for consents (consents.multilevelSca.signers 2): "Repeated once per required SCA in a corporate context" (section B)',
    breaks: ['consents.multilevel.last-signer'],
    claims: { consents: { multilevelSca: { signers: 2 } } },
    // The reference sandbox makes a consent valid after one SCA in any context: under the claim that is the fault.
    install: () => undefined,
  },
];

export default faults;
