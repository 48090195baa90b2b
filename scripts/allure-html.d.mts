export const ALLURE_OPTION: string;
export function allureHtmlOf(args: string[], env?: NodeJS.ProcessEnv, cwd?: string): { on?: boolean; error?: string };
export function buildAllureHtml(reports: string, env?: NodeJS.ProcessEnv): string[];
