// The accounts a PSU of the sandbox holds, by context: what each is and how its days are filled
// (sandbox/seed/accounts.ts draws the entries).

/** One account of a PSU: its product and names, the currencies it holds, its opening and the kind of its days. */
export interface AccountPlan {
  product: string;
  cashAccountType: string;
  name: string;
  holds: string[];
  /** Opening balance in cents at the start of the history, per held currency. */
  opening: number;
  profile: 'salary' | 'savings' | 'travel' | 'business' | 'reserve';
}

export const PRIVATE: AccountPlan[] = [
  {
    product: 'Privatkonto',
    cashAccountType: 'CACC',
    name: 'Lönekonto',
    holds: ['SEK'],
    opening: 2_450_000,
    profile: 'salary',
  },
  {
    product: 'Sparkonto',
    cashAccountType: 'SVGS',
    name: 'Buffert',
    holds: ['SEK'],
    opening: 8_500_000,
    profile: 'savings',
  },
  {
    product: 'Eurokonto',
    cashAccountType: 'CACC',
    name: 'Resekonto EUR',
    holds: ['EUR'],
    opening: 150_000,
    profile: 'travel',
  },
  {
    product: 'Valutakonto',
    cashAccountType: 'CACC',
    name: 'Valutakonto',
    holds: ['EUR', 'USD', 'NOK'],
    opening: 300_000,
    profile: 'travel',
  },
];
export const CORPORATE: AccountPlan[] = [
  {
    product: 'Företagskonto',
    cashAccountType: 'CACC',
    name: 'Rörelsekonto',
    holds: ['SEK'],
    opening: 65_000_000,
    profile: 'business',
  },
  {
    product: 'Företagsvalutakonto',
    cashAccountType: 'CACC',
    name: 'Valutakonto',
    holds: ['EUR', 'USD'],
    opening: 12_000_000,
    profile: 'business',
  },
  {
    product: 'Placeringskonto',
    cashAccountType: 'SVGS',
    name: 'Skattekonto reserv',
    holds: ['SEK'],
    opening: 40_000_000,
    profile: 'reserve',
  },
  {
    product: 'Företagskonto EUR',
    cashAccountType: 'CACC',
    name: 'EUR-konto',
    holds: ['EUR'],
    opening: 9_000_000,
    profile: 'business',
  },
];
