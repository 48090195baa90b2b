export function reportsDirOf(env?: NodeJS.ProcessEnv, cwd?: string): string;
export function listsOnly(args: string[]): boolean;
export const DEFAULT_WORKERS: number;
/** The runner's own option that adds Playwright's list of every test to the suite's console. */
export const PLAYWRIGHT_LIST_OPTION: string;
export const CONSOLES: string[];
/** OBG_CONSOLE: `suite` (default) or `playwright-list`; { error } naming the key otherwise. */
export function consoleOf(
  env?: NodeJS.ProcessEnv,
  cwd?: string,
): { console?: 'suite' | 'playwright-list'; error?: string };
/** The seed of the suite's order of tests (Playwright's --shuffle), the same in every run. */
export const SCHEDULE_SEED: string;
/** `args` with the suite's order of tests (`--shuffle=<SCHEDULE_SEED>`), unless they name one of their own or choose several areas (`--project` twice or more). */
export function scheduled(args: string[]): string[];
/** The areas a command line chooses (`--project=<area>` or `--project <area>`), in its order; none for a whole run. */
export function chosenAreas(args: string[]): string[];
export function workersOf(
  args: string[],
  env?: NodeJS.ProcessEnv,
  cwd?: string,
): { workers?: number; percent?: string; error?: string };
export function readerPsuProblem(
  profile: { accounts?: { readerPsuIds?: string[] } } | undefined,
  workers: number | undefined,
  profileName?: string,
): string | undefined;
export function packageFile(root: string, pkg: string, file: string): string | undefined;
/** `env` without the caller's target settings (per-scope tokens included), for a run against the embedded sandbox. */
export function withoutTargetSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
