import type { Variant } from './index.js';

/** Optional fields, link names, bodies and header spellings the specification allows. */
const variants: Variant[] = [];

export default variants;
