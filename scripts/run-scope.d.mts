export function narrows(args: string[]): boolean;
