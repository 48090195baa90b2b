import { DEFAULT_PKI_DIR, ensurePki } from './pki.js';

/** `node --import tsx sandbox/tls/make-pki.ts [dir]`: makes the sandbox's test PKI (if missing) and prints its folder. */
const pki = await ensurePki(process.argv[2] || DEFAULT_PKI_DIR);
process.stdout.write(pki.dir);
