/** The text characters every text field must support (General rules). */
export const CHARACTER_SET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-?:().,'+";

/** A text of exactly `length` letters and digits (for length limits, apart from the character set). */
export function plainText(length: number): string {
  return CHARACTER_SET.slice(0, 62)
    .repeat(Math.ceil(length / 62))
    .slice(0, length);
}

/** A text of exactly `length` characters made of the specification's character set. */
export function text(length: number): string {
  return CHARACTER_SET.repeat(Math.ceil(length / CHARACTER_SET.length) + 1).slice(-length);
}
