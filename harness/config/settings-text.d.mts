/** The settings part of a command's --help (empty when the command reads none of its own). */
export function settingsHelp(command: string): string;
/** The text of .env.example. */
export function envExample(): string;
