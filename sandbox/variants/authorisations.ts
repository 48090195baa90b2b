import type { Variant } from './variant.js';

/** A decoupled SCA at the edge of the profile's time bound. */
const variants: Variant[] = [
  {
    id: 'authorisations.sca-in-time',
    description: 'a decoupled SCA ends just inside the bound the profile claims (9 of 10 seconds)',
    allows:
      'In the sandbox the status changes on its own within a few seconds with no PSU action. (States > Authorisation; the reference profile claims sca.finaliseWithinMs 10000)',
    concerns: ['authorisations.sandbox.finalises-within'],
    warns: [],
    install: (app) => {
      app.sandbox.sca.delayFor = () => 9_000;
    },
  },
];

export default variants;
