export const PINNED_SEED: number;
export function generatedOptionsOf(
  args: string[],
  env?: Record<string, string | undefined>,
  cwd?: string,
): { args: string[]; seed: number; env: Record<string, string>; error?: undefined } | { error: string };
