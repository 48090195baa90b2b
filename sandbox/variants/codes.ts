import type { Variant } from './index.js';

/** Other status codes of the right class, where the specification shows none. */
const variants: Variant[] = [];

export default variants;
