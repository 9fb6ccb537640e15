/** Links of the sandbox's resources; paths relative to the server, as every answer's links are. */

export type Link = { href: string; verbs: string[] };

export function link(href: string, ...verbs: string[]): Link {
  return { href, verbs };
}

export function transactionLink(accountId: string, id: string): Link {
  return link(`/v1/sandbox/accounts/${encodeURIComponent(accountId)}/transactions/${encodeURIComponent(id)}`, 'GET');
}

export function cardTransactionLink(cardAccountId: string, id: string): Link {
  return link(
    `/v1/sandbox/card-accounts/${encodeURIComponent(cardAccountId)}/transactions/${encodeURIComponent(id)}`,
    'GET',
  );
}
