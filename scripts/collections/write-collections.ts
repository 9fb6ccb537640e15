import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brunoCollection, writeBrunoCollection } from './bruno-collection.js';
import { postmanCollection } from './postman-collection.js';
import { type OpenApiDocument, toolDocument } from './tool-document.js';
import { buildStandInApp } from '../stand-in-app.js';

/**
 * A Postman and a Bruno collection of the sandbox's OpenAPI document, pointed at the signing proxy
 * (README, "Any HTTP tool: the signing proxy"), in dist/collections/: made from the routes, not
 * kept in git, at every install and pack (scripts/prepare.mjs) and by `npm run collections`; packed
 * with the toolkit (package.json "files").
 */
export const COLLECTIONS_DIR = 'dist/collections';
export const POSTMAN_FILE = 'psd2-pis.postman_collection.json';
export const BRUNO_DIR = 'bruno';

export async function writeCollections(dir = COLLECTIONS_DIR): Promise<void> {
  const app = await buildStandInApp('sandbox');
  const document = toolDocument(app.swagger() as unknown as OpenApiDocument);
  await app.close();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, POSTMAN_FILE), `${JSON.stringify(await postmanCollection(document), null, 2)}\n`);
  await writeBrunoCollection(brunoCollection(document), join(dir, BRUNO_DIR));
}
