/** A TPP request that created something, kept so a retry with the same X-Request-ID gets the same answer. */
export interface TppRequestRecord {
  tppId: string;
  requestId: string;
  /** Method and path, e.g. `POST /v1/payments/norwegian-cross-border-credit-transfers`. */
  operation: string;
  bodySha256: string;
  responseStatus: number;
  responseBody: string;
}

export interface StoredTppRequest {
  operation: string;
  bodySha256: string;
  responseStatus: number;
  responseBody: string;
}
