/** Allure's application (JavaScript) with no outside address. */
export function offlineScript(js: string): string;
/** A built page with no analytics, and its inlined scripts with no outside address. */
export function offlinePage(html: string): string;
/** Makes a built report (one HTML file, or a folder) offline in place; the files changed. */
export function makeOffline(path: string): string[];
/** The outside addresses a page names (loopback and XML namespace names aside). */
export function externalUrls(text: string): string[];
