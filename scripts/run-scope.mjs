// @ts-check
// Whether a command line of `npm run conformance` runs the whole suite or only some of its tests.
// The suite's own word, not Playwright's: a whole run may choose areas (--project), workers and
// the order of its tests (--shuffle[=seed]); any other argument (a grep, a file, --last-failed,
// a shard…) narrows the run, which then judges only the requirements its tests name.

const WHOLE = [/^--project(=.+)?$/, /^(-j|--workers)(=.+)?$/, /^--shuffle(=.+)?$/];
const TAKES_VALUE = new Set(['--project', '-j', '--workers']);
/** Options whose value is optional: the next argument is theirs unless it is an option. */
const MAY_TAKE_VALUE = new Set(['--shuffle']);

/**
 * True when `args` (after `npm run conformance --`) run only some of the tests of their areas.
 * @param {string[]} args
 */
export function narrows(args) {
  for (let i = 0; i < args.length; i++) {
    if (!WHOLE.some((re) => re.test(args[i]))) return true;
    if (TAKES_VALUE.has(args[i]) || (MAY_TAKE_VALUE.has(args[i]) && args[i + 1] && !args[i + 1].startsWith('-'))) i++;
  }
  return false;
}
