// `npm run verify -- <package> [--trust=<public key or certificate PEM>]`: checks every file of a
// certification package against its manifest and the manifest's signature, and prints target,
// profile, date, suite version and verdict. Any changed, added or removed file, or a signature by
// another key than the trusted one, fails (exit 1) with the reason.
import { resolve } from 'node:path';
import { verifyPackage } from '../harness/reporter/package.js';

const args = process.argv.slice(2);
const trustAt = args.findIndex((a) => a === '--trust' || a.startsWith('--trust='));
const trust =
  trustAt < 0 ? undefined : args[trustAt].startsWith('--trust=') ? args[trustAt].slice(8) : args[trustAt + 1];
const rest = args.filter(
  (_, i) => trustAt < 0 || (i !== trustAt && !(args[trustAt] === '--trust' && i === trustAt + 1)),
);
if (rest.length !== 1 || (trustAt >= 0 && !trust)) {
  console.error(
    'usage: npm run verify -- <package.tar.gz or its unpacked folder> [--trust=<public key or certificate PEM>]',
  );
  process.exit(2);
}

const v = await verifyPackage(resolve(process.cwd(), rest[0]), trust && resolve(process.cwd(), trust));
if (v.manifest) {
  const m = v.manifest;
  console.log(`target:   ${m.target.baseUrl}${m.target.embedded ? ' (embedded reference sandbox)' : ''}`);
  console.log(`profile:  ${m.target.profile}`);
  console.log(`date:     ${m.date} (run ${m.startedAt} to ${m.finishedAt})`);
  console.log(
    `suite:    ${m.suite.name} ${m.suite.version} (commit ${m.suite.commit}, specification SHA-256 ${m.suite.specSha256})`,
  );
  console.log(`verdict:  ${m.verdict}`);
}
if (v.thumbprint)
  console.log(
    `key:      ${v.thumbprint} (JWK SHA-256 thumbprint)${trust ? ', the trusted key' : ", the package's own key"}`,
  );
if (!v.ok) {
  for (const p of v.problems) console.error(`verify: FAILED: ${p}`);
  process.exit(1);
}
console.log(`verify: OK: ${v.manifest!.files.length} files match the manifest and its signature.`);
