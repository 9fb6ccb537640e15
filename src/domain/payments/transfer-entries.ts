/** What a transfer's booking shows beyond its amount and creditor, as the payment's body gives it. */
export interface TransferEntry {
  remittance: string;
  ultimateDebtor: string;
  purposeCode: string;
  /** endToEndIdentification (release 1.21.18, the products that take it); '' when the body has none. */
  endToEndId: string;
}

/**
 * Remittance, ultimate debtor and purpose of each transfer, from the body as submitted (one entry for a
 * single payment, one per entry of a bulk), in the transfers' order.
 */
export function entriesOf(body: unknown, service: string): TransferEntry[] {
  const parsed = body as Record<string, unknown>;
  return service === 'bulk-payments'
    ? ((parsed.payments as Record<string, unknown>[]) ?? []).map(entryOf)
    : [entryOf(parsed)];
}

function entryOf(entry: Record<string, unknown>): TransferEntry {
  const structured = [
    entry.remittanceInformationStructured,
    ...((entry.remittanceInformationStructuredArray as unknown[] | undefined) ?? []),
  ]
    .filter(
      (r): r is { reference: string } =>
        typeof r === 'object' && r !== null && typeof (r as { reference?: unknown }).reference === 'string',
    )
    .map((r) => r.reference);
  return {
    remittance:
      typeof entry.remittanceInformationUnstructured === 'string'
        ? entry.remittanceInformationUnstructured
        : structured.join(' '),
    ultimateDebtor: typeof entry.ultimateDebtor === 'string' ? entry.ultimateDebtor : '',
    purposeCode: typeof entry.purposeCode === 'string' ? entry.purposeCode : '',
    endToEndId: typeof entry.endToEndIdentification === 'string' ? entry.endToEndIdentification : '',
  };
}
