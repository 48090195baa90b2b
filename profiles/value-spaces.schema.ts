/*
 * The profile's options that narrow or widen what a bank may decline (harness/areas/value-spaces.ts):
 * combined sessions, the execution horizon and business days of payments, amount forms, the lead
 * time of a collection, and what a bank does with text beyond the minimum set. Each states its
 * default; profile.schema.ts holds them in their sections.
 */

export const combinedSessions = {
  description:
    "Whether the bank offers combined AIS and PIS sessions (create consent with combinedServiceIndicator true): 'offered' (such a consent must be accepted) or 'may-decline' (it may be declined with 400 SESSIONS_NOT_SUPPORTED, the code Berlin Group gives a bank without them, while the same consent with false is accepted). Default 'may-decline'; a bank that offers them claims 'offered' and is judged on more.",
  enum: ['offered', 'may-decline'],
  default: 'may-decline',
} as const;

export const executionHorizonDays = {
  description:
    "How many days ahead a requestedExecutionDate (a periodic payment's startDate) must be taken: a later date may be declined with 400 EXECUTION_DATE_INVALID (the specification gives the field as an ISO date and no horizon; Berlin Group names the code). Default 30; a bank that takes later dates claims its horizon and is judged on more.",
  type: 'integer',
  minimum: 3,
  maximum: 3650,
  default: 30,
} as const;

export const nonBusinessDays = {
  description:
    "Whether a requestedExecutionDate (a startDate) on a Saturday, a Sunday or a TARGET2 holiday must be taken ('accepted') or may be declined with 400 EXECUTION_DATE_INVALID ('may-decline'). Default 'may-decline'.",
  enum: ['accepted', 'may-decline'],
  default: 'may-decline',
} as const;

export const amountForms = {
  description:
    "Which forms of instructedAmount.amount every bank must take: 'two-decimals' (e.g. \"12.50\", the form of the specification's examples; the other forms of Berlin Group's pattern, \"12\" or \"12.5\", may be declined with 400 FORMAT_ERROR) or 'any-of-the-pattern' (every form of `-?[0-9]{1,14}(\\.[0-9]{1,3})?` must be taken). Default 'two-decimals'.",
  enum: ['two-decimals', 'any-of-the-pattern'],
  default: 'two-decimals',
} as const;

export const leadTimeDays = {
  description:
    'How many days before its due date (requestedExecutionDate) a collection must be taken: one due later may be declined with 400 EXECUTION_DATE_INVALID (the SEPA Core rulebook takes collections up to 14 calendar days before their due date). Default 14; a bank that takes earlier ones claims its lead time and is judged on more.',
  type: 'integer',
  minimum: 2,
  maximum: 3650,
  default: 14,
} as const;

/** What a bank declares it does with text beyond the minimum set (the robustness properties read it). */
export const textNormalisation = {
  description:
    "What the target declares it does with the text it stores beyond the specification's minimum set ('Text fields must support at least these characters'): 'trim' (leading and trailing whitespace taken off), 'fold' (letters' marks taken off, é as e, and any other character outside printable ASCII stored as one character of its own choosing, '?' commonly). A text the target accepts must read back as sent, or as sent under what is declared here; a target that refuses such texts (a 4xx with tppMessages) needs no declaration. Default: none, every accepted text reads back byte for byte (the robustness properties of the generated phase judge it).",
  type: 'array',
  uniqueItems: true,
  items: { enum: ['trim', 'fold'] },
  default: [],
} as const;

/** The profile's `texts` section. */
export const texts = {
  type: 'object',
  default: {},
  additionalProperties: false,
  properties: { normalisation: textNormalisation },
} as const;
