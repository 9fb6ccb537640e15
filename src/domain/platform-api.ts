/**
 * The version of the platform's API this server follows (Tietoevry Open Banking, the interface
 * specification): the OpenAPI document's info.version, and `version.api` of GET /health. It changes
 * when the server follows a new version of the specification, not with the server's own version.
 */
export const PLATFORM_API_VERSION = '1.21.20';
