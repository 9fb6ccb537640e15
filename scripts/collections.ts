import { COLLECTIONS_DIR, writeCollections } from './collections/write-collections.js';

/** `npm run collections`, and the last step of every build: scripts/collections/write-collections.ts. */
await writeCollections();
process.stdout.write(`collections: ${COLLECTIONS_DIR}/\n`);
