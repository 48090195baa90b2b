export const paymentsDefsSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://obg-conformance.dev/schemas/payments/defs.json',
  title:
    'Building blocks of the payment initiation bodies (Resources > Payment; reference-facts: bulk, periodic, swedish-giro, value formats)',
  $defs: {
    date: { type: 'string', format: 'date' },
    address: {
      type: 'object',
      required: ['country'],
      properties: {
        street: { type: 'string', maxLength: 70 },
        buildingNumber: { type: 'string' },
        city: { type: 'string' },
        postalCode: { type: 'string' },
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
      },
    },
    giro: {
      type: 'object',
      required: ['giroType', 'giroNumber'],
      properties: {
        giroType: { enum: ['BANKGIRO', 'PLUSGIRO'] },
        giroNumber: { type: 'string', pattern: '^[0-9-]{5,35}$' },
      },
    },
    transaction: {
      type: 'object',
      description: 'The creditor side: a single payment, or one element of a bulk',
      properties: {
        endToEndIdentification: { type: 'string', maxLength: 35 },
        instructedAmount: { $ref: '../common/amount.json' },
        creditorAccount: { $ref: '../common/account-reference.json' },
        creditorAgent: { $ref: '../common/bicfi.json' },
        creditorAgentName: { type: 'string', maxLength: 70 },
        creditorName: { type: 'string', minLength: 1, maxLength: 70 },
        creditorAddress: { $ref: '#/$defs/address' },
        remittanceInformationUnstructured: { type: 'string', maxLength: 140 },
        creditorGiro: { $ref: '#/$defs/giro' },
        ocrRef: { type: 'string', pattern: '^[0-9]{5,140}$' },
        invoiceRef: { type: 'string', minLength: 5, maxLength: 140 },
      },
    },
    single: {
      type: 'object',
      allOf: [{ $ref: '#/$defs/transaction' }],
      properties: {
        debtorAccount: { $ref: '../common/account-reference.json' },
        debtorAccountMessage: { type: 'string', maxLength: 140 },
        requestedExecutionDate: { $ref: '#/$defs/date' },
      },
    },
    periodic: {
      type: 'object',
      allOf: [{ $ref: '#/$defs/single' }],
      required: ['startDate', 'frequency'],
      properties: {
        startDate: { $ref: '#/$defs/date' },
        endDate: { $ref: '#/$defs/date' },
        frequency: {
          enum: ['Daily', 'Weekly', 'EveryTwoWeeks', 'Monthly', 'EveryTwoMonths', 'Quarterly', 'SemiAnnual', 'Annual'],
        },
        executionRule: { enum: ['following', 'preceding'] },
        dayOfExecution: { type: 'string', pattern: '^([1-9]|[12][0-9]|3[01])$' },
      },
    },
    bulk: {
      type: 'object',
      required: ['debtorAccount', 'payments'],
      properties: {
        debtorAccount: { $ref: '../common/account-reference.json' },
        batchBookingPreferred: { type: 'boolean' },
        requestedExecutionDate: { $ref: '#/$defs/date' },
        payments: { type: 'array', minItems: 1 },
      },
    },
  },
} as const;
