/** spec: PurposeCode, the supported subset of the ISO 20022 external purpose codes. */
export const PURPOSE_CODES = [
  'INVS',
  'SALA',
  'IDCP',
  'CASH',
  'CORT',
  'INTC',
  'PENS',
  'SSBE',
  'SUPP',
  'TAXS',
  'TREA',
  'VATX',
  'LOAN',
  'OTHR',
] as const;

export type PurposeCode = (typeof PURPOSE_CODES)[number];

/** spec: regulatoryReportingCode of the cross-border product (Norges Bank's reporting codes). */
export const REGULATORY_REPORTING_CODES = [
  '14',
  '26',
  '29',
  '31',
  '35',
  '38',
  '41',
  '43',
  '45',
  '51',
  '52',
  '53',
  '71',
  '79',
  '81',
  '82',
] as const;
