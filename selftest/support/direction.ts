// The project's layout as rules: the direction between its parts, from the commands down to the
// shared data. Held by selftest/unit/layout.spec.ts (no import against it) and shown by the table
// of rooms in docs/layout.md (its "May import" column is made from these rules, and tested).

/** The parts of the project that hold code, top level, in the order the layout page names them. */
export const PARTS = [
  'bin',
  'scripts',
  'playwright.config.ts',
  'embedded-sandbox.ts',
  'allurerc.mjs',
  'harness',
  'tests',
  'sandbox',
  'selftest',
  'schemas',
  'profiles',
  'spec',
] as const;

/**
 * The direction between the parts: each rule names the parts (folders or root files) it holds for
 * and the parts they never import.
 */
export const DIRECTION: { from: string[]; never: string[]; why: string }[] = [
  {
    from: ['bin'],
    never: ['selftest'],
    why: 'the command is shipped and the self-tests are not (package.json `files`)',
  },
  {
    from: ['sandbox'],
    never: [
      'harness',
      'scripts',
      'bin',
      'tests',
      'selftest',
      'playwright.config.ts',
      'embedded-sandbox.ts',
      'allurerc.mjs',
    ],
    why: 'the bank stands below its judge: the sandbox knows nothing of the suite (its command, scripts/sandbox.ts, says how to run the suite against it)',
  },
  {
    from: ['harness', 'tests'],
    never: ['sandbox', 'scripts', 'bin', 'selftest', 'playwright.config.ts', 'embedded-sandbox.ts', 'allurerc.mjs'],
    why: 'the suite judges a bank without knowing the sandbox (only embedded-sandbox.ts, beside playwright.config.ts, starts it), and the commands stand above it',
  },
  {
    from: ['harness'],
    never: ['tests'],
    why: 'the harness serves the scenarios, never the other way round',
  },
  {
    from: ['playwright.config.ts', 'embedded-sandbox.ts', 'allurerc.mjs'],
    never: ['scripts', 'bin', 'tests', 'selftest'],
    why: 'the configuration is run by the commands, never runs them',
  },
  {
    from: ['scripts'],
    never: ['bin', 'tests', 'selftest'],
    why: 'the scripts are the commands the command line runs: nothing above them',
  },
  {
    from: ['schemas', 'profiles', 'spec'],
    never: [
      'harness',
      'sandbox',
      'scripts',
      'bin',
      'tests',
      'selftest',
      'playwright.config.ts',
      'embedded-sandbox.ts',
      'allurerc.mjs',
    ],
    why: 'the schemas, the profiles and the specification are shared by suite and sandbox, and depend on neither',
  },
  {
    from: ['sandbox/faults'],
    never: ['sandbox/variants'],
    why: 'faults and variants share only their hooks (sandbox/hooks.ts)',
  },
  {
    from: ['sandbox/variants'],
    never: ['sandbox/faults'],
    why: 'faults and variants share only their hooks (sandbox/hooks.ts)',
  },
];

export const within = (path: string, part: string) => path === part || path.startsWith(`${part}/`);

/** A part as the layout page writes it: a folder with its slash, in backticks. */
const shown = (part: string) => `\`${/\.(ts|mjs)$/.test(part) ? part : `${part}/`}\``;

/**
 * What a part (a folder or root file, or a folder inside one) may import, in words, by the rules:
 * "anything", "anything but …" or the list of the parts it may import, and the folders inside them
 * it may not. Undefined for a part that holds no code of the direction (requirements/, docs/ci/).
 */
export function mayImport(part: string): string | undefined {
  if (!PARTS.some((p) => within(part, p))) return undefined;
  const never = new Set(DIRECTION.filter((r) => r.from.some((f) => within(part, f))).flatMap((r) => r.never));
  const forbidden = PARTS.filter((p) => never.has(p));
  const allowed = PARTS.filter((p) => !never.has(p));
  const inner = [...never].filter((n) => n.includes('/'));
  if (!forbidden.length && !inner.length) return 'anything';
  if (allowed.length > forbidden.length) return `anything but ${[...forbidden, ...inner].map(shown).join(', ')}`;
  return `${allowed.map(shown).join(', ')}${inner.length ? `; not ${inner.map(shown).join(', ')}` : ''}`;
}
