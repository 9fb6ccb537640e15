import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import semver from 'semver';

/**
 * `npm install` warns EBADENGINE for a dependency whose engines.node leaves out the Node it runs on,
 * and such a dependency may use what that Node lacks. The project says which Node it runs on
 * (package.json engines.node); every installed package must accept the oldest of those and the Node
 * running now (docs/decisions/0032).
 */
interface Manifest {
  name?: string;
  version?: string;
  engines?: { node?: unknown };
}

const project = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
const projectRange = String(project.engines?.node);

/** Every package.json under node_modules, nested ones included. */
function installedManifests(dir: string): { path: string; manifest: Manifest }[] {
  if (!existsSync(dir)) return [];
  const found: { path: string; manifest: Manifest }[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (entry.startsWith('@')) {
      found.push(...installedManifests(path));
      continue;
    }
    const manifestPath = join(path, 'package.json');
    if (existsSync(manifestPath))
      found.push({ path, manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest });
    found.push(...installedManifests(join(path, 'node_modules')));
  }
  return found;
}

describe('dependencies and the Node the project runs on', () => {
  const oldest = semver.minVersion(projectRange);

  it('runs on a Node the project declares', () => {
    assert.ok(oldest !== null, `package.json engines.node '${projectRange}' names no version`);
    assert.ok(
      semver.satisfies(process.version, projectRange),
      `Node ${process.version} is outside package.json engines.node '${projectRange}'`,
    );
  });

  it('has no installed package whose engines.node leaves out the oldest declared Node or this one', () => {
    const packages = installedManifests('node_modules');
    assert.ok(
      packages.length > 100,
      `expected the installed tree under node_modules, found ${packages.length} packages`,
    );
    const refused = packages.flatMap(({ path, manifest }) => {
      const range = manifest.engines?.node;
      if (typeof range !== 'string') return [];
      const misses = [oldest!.version, process.version].filter((version) => !semver.satisfies(version, range));
      return misses.length === 0
        ? []
        : [`${manifest.name}@${manifest.version} (${path}) needs node '${range}', not ${misses.join(' or ')}`];
    });
    assert.deepEqual(refused, []);
  });
});
