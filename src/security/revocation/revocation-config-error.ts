/** A CRL file the bank named that is not a CRL of a trusted CA: the server does not start (exit code 2). */
export class RevocationConfigError extends Error {}
