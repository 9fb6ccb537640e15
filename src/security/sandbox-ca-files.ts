/** The sandbox CA's files in DATA_DIR: named apart from sandbox-ca.ts, so that the toolkit names them without loading the CA's code. */
export const SANDBOX_CA_CERT_FILE = 'sandbox-ca.cert.pem';
export const SANDBOX_CA_KEY_FILE = 'sandbox-ca.key.pem';
