import { writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Directories of test/ whose files run together, several in one process, rather than one process per
 * file: their files change no process-wide setting (environment, timers, global dispatcher), and a
 * process's start and the loading of the modules they share (the whole app for most) cost more than
 * many of them (docs/decisions/0330). A file of another directory keeps a process of its own.
 */
export const ONE_PROCESS_DIRS: readonly string[] = [
  'architecture',
  'config',
  'core',
  'docs',
  'domain',
  'http',
  'security',
  'services',
  'store',
];

/** Files of those directories that keep a process of their own, and why. */
const OWN_PROCESS: readonly string[] = [
  // Installs the build's precompiled validators for the whole process: the apps of later files would use them.
  'test/http/schema-compiler/precompiled-schemas.test.ts',
];

/** The most files in one process: the groups of a large directory run side by side (--test-concurrency). */
const MAX_FILES_PER_PROCESS = 12;

/**
 * The files to give node --test: each file outside ONE_PROCESS_DIRS as it is, and for each of those
 * directories a module written into `dir` that imports its files one after the other, each inside a
 * suite named after the file's source, so that its top-level hooks stay its own and a failure names
 * it. A file that fails to load is a failed test named after it, as a process of its own would be.
 */
export function groupTestFiles(files: readonly string[], dir: string, sourceOf: (file: string) => string): string[] {
  const alone: string[] = [];
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const directory = relative(join('dist', 'test'), file).split(sep)[0]!;
    if (!ONE_PROCESS_DIRS.includes(directory) || OWN_PROCESS.includes(sourceOf(file))) {
      alone.push(file);
      continue;
    }
    const count = [...groups.keys()].filter((key) => key.startsWith(`${directory}-`)).length;
    const last = `${directory}-${Math.max(count, 1)}`;
    const group = (groups.get(last)?.length ?? 0) < MAX_FILES_PER_PROCESS ? last : `${directory}-${count + 1}`;
    groups.set(group, [...(groups.get(group) ?? []), file]);
  }
  const grouped = [...groups].map(([group, members]) => {
    if (members.length === 1) return members[0]!;
    const path = join(dir, `${group}-files.mjs`);
    const entries = members.map((file) => [sourceOf(file), pathToFileURL(resolve(file)).href]);
    writeFileSync(
      path,
      `import { describe, it } from 'node:test';
for (const [name, url] of ${JSON.stringify(entries)})
  describe(name, async () => {
    try {
      await import(url);
    } catch (error) {
      it('loads', () => {
        throw error;
      });
    }
  });
`,
    );
    return path;
  });
  return [...grouped, ...alone];
}
