export function narrows(args: string[]): boolean;
export const NARROWED_ENV: string;
