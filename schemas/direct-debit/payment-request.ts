export const directDebitPaymentRequestSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/direct-debit/payment-request.json',
  title:
    'Create SEPA direct debit payment: the body, with the fields a pain.008.001.02 collection needs marked required',
  description:
    "The specification leaves the required fields open ('not shown'). These are the ones the reference sandbox requires because the pain.008 file needs them: instructedAmount, creditorAccount.iban, creditorName, creditorId, creditorAgent, debtorAccount.iban, debtorName, localInstrumentCode, sequenceType, mandateRelatedInformation (mandateId, dateOfSignature) and requestedExecutionDate. Value rules checked beyond this schema: currency EUR; amount positive with at most 2 decimals; localInstrumentCode CORE; IBANs with valid ISO 13616 check digits, the debtor's from the Netherlands; creditorAgent and debtorAgent valid BICs; creditorId a SEPA creditor identifier with valid ISO 7064 mod 97-10 check digits; sequenceType one of FRST, RCUR, OOFF, FNAL; requestedExecutionDate and dateOfSignature ISO 8601 dates, the signature not in the future.",
  type: 'object',
  required: [
    'instructedAmount',
    'creditorAccount',
    'creditorName',
    'creditorId',
    'creditorAgent',
    'debtorAccount',
    'debtorName',
    'localInstrumentCode',
    'sequenceType',
    'mandateRelatedInformation',
    'requestedExecutionDate',
  ],
  properties: {
    instructedAmount: { $ref: '../common/amount.json' },
    creditorAccount: {
      type: 'object',
      required: ['iban'],
      properties: {
        iban: { $ref: '../common/iban.json' },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      },
    },
    creditorName: { type: 'string', minLength: 1, maxLength: 70 },
    creditorId: {
      description: 'SEPA creditor identifier (check digits checked in code)',
      type: 'string',
      minLength: 1,
      maxLength: 35,
    },
    creditorAddress: { $ref: 'address.json' },
    creditorAgent: {
      description: "BIC of the creditor's bank (checked in code)",
      type: 'string',
      minLength: 1,
    },
    creditorAgentName: { type: 'string', maxLength: 70 },
    debtorAccount: {
      type: 'object',
      required: ['iban'],
      properties: {
        iban: { $ref: '../common/iban.json' },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      },
    },
    debtorName: { type: 'string', minLength: 1, maxLength: 70 },
    debtorAgent: {
      description: "BIC of the payer's bank (checked in code)",
      type: 'string',
      minLength: 1,
    },
    debtorAgentName: { type: 'string', maxLength: 70 },
    debtorAddress: { $ref: 'address.json' },
    localInstrumentCode: { description: 'only CORE (checked in code)', type: 'string' },
    sequenceType: { description: 'FRST, RCUR, OOFF or FNAL (checked in code)', type: 'string' },
    mandateRelatedInformation: {
      type: 'object',
      required: ['mandateId', 'dateOfSignature'],
      properties: {
        mandateId: { type: 'string', minLength: 1, maxLength: 35 },
        dateOfSignature: { description: 'ISO 8601 date (checked in code)', type: 'string' },
      },
    },
    requestedExecutionDate: { description: 'ISO 8601 date (checked in code)', type: 'string' },
    remittanceInformationUnstructuredArray: {
      type: 'array',
      items: { type: 'string', maxLength: 140 },
    },
    endToEndIdentification: { type: 'string', minLength: 1, maxLength: 35 },
  },
} as const;
