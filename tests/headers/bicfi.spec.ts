import { refusalTests, test, type Operation } from '../../harness/operations.js';

// X-BicFi (Common request headers): "Required on every operation except the ASPSP information
// operations", of the BIC pattern; judged on every claimed operation that requires it.

const needsBicFi = (o: Operation) => o.requires.includes('X-BicFi');

for (const t of refusalTests({
  requirement: 'headers.x-bicfi.required',
  title: 'called without X-BicFi is refused and changes nothing',
  applies: needsBicFi,
  cases: () => [{ what: 'no X-BicFi', call: { headers: { 'X-BicFi': null } } }],
}))
  test(t.title, t.details, t.body);

/**
 * Values from the target's own BIC that break one rule each of "six letters, one character from
 * A-Z or 2-9, one from A-N, P-Z or 0-9, then an optional group of three characters A-Z or 0-9".
 */
function malformedBics(bic: string): [string, string][] {
  const b = (bic || 'ESSESESS').slice(0, 8).toUpperCase();
  const at = (i: number, ch: string) => `${b.slice(0, i)}${ch}${b.slice(i + 1)}`;
  return [
    ['lower case', b.toLowerCase()],
    ['seven characters', b.slice(0, 7)],
    ['7th character 1 (only A-Z or 2-9)', at(6, '1')],
    ['8th character O (only A-N, P-Z or 0-9)', at(7, 'O')],
  ];
}

for (const t of refusalTests({
  requirement: 'headers.x-bicfi.pattern',
  title: 'called with an X-BicFi that is not a BIC is refused and changes nothing',
  applies: needsBicFi,
  cases: (_o, target) =>
    malformedBics(target.bicFi).map(([why, v]) => ({
      what: `X-BicFi "${v}" (${why})`,
      call: { headers: { 'X-BicFi': v } },
    })),
}))
  test(t.title, t.details, t.body);
