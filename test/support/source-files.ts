import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The TypeScript files under a folder, at any depth, as sorted paths with `/` (the architecture tests read them). */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name).split('\\').join('/'))
    .sort();
}
