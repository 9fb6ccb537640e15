import type { ErrorObject } from 'ajv';
import { VALIDATION_ENTRIES_PER_TURN } from '../../domain/limits.js';
import { turn } from '../body/turn.js';
import type { ArrayBound } from './array-bounds.js';
import type { DescribedProblems } from './described-problems.js';
import { describe, withContext, withoutBranchErrors } from './problem-description.js';
import type { ListValidator, PartValidator, UnitCompiler, ValidateRequest } from './route-validator.js';

/**
 * The lists of a body validated a chunk of entries at a time, with the event loop turning between
 * chunks, so that a large body does not hold every other request; and their validators warmed up over
 * made-up entries before the first real large body comes.
 */

/**
 * Validates bodies whose lists hold WARM_UP_ENTRIES made-up entries, every field of each set to one
 * of WARM_UP_VALUES, a chunk at a time as a large body is: the validators' code is then compiled by
 * the JIT before the first real large body comes (warm-up.ts).
 */
export async function warmLists(validate: ValidateRequest, validators: readonly PartValidator[]): Promise<void> {
  const body = validators.find((v) => v.part === 'body');
  if (body?.lists === undefined) return;
  for (const value of WARM_UP_VALUES) {
    const made: Record<string, unknown> = {};
    let root: unknown[] | undefined;
    for (const list of body.lists.entries) {
      const fields = Object.keys((list.schema as { properties?: object }).properties ?? {});
      // No more than the list takes: a longer one is refused whole (overlongArray) before its entries are validated.
      const most = body.arrayBounds.find((bound) => bound.property === list.property)?.maxItems ?? WARM_UP_ENTRIES;
      // An unknown field too: the error of a field the entry does not have is a branch of its own.
      const entries = Array.from({ length: Math.min(WARM_UP_ENTRIES, most) }, () =>
        Object.fromEntries([...fields, 'unknownField'].map((field) => [field, value])),
      );
      if (list.property === undefined) root = entries;
      else made[list.property] = entries;
    }
    await validate({ headers: {}, params: {}, query: {}, body: root ?? made });
    await turn();
  }
}

/** Entries per made-up list: enough for the JIT to compile an entry validator, a few milliseconds of work. */
const WARM_UP_ENTRIES = 200;
/** Values of every kind a hostile body sends: wrong types, long one-byte and two-byte text, numbers. */
const WARM_UP_VALUES: readonly unknown[] = [true, 'x'.repeat(300), 'ø'.repeat(300), 1.5, { a: [1] }];

/**
 * The body's lists (its own array, or arrays one property down) with their entries' schemas taken
 * out: the rest of the body is validated at once, the entries a chunk at a time. Undefined when the
 * body has no such list.
 */
export function listValidatorOf(
  schema: Record<string, unknown>,
  bounds: readonly ArrayBound[],
  compile: UnitCompiler,
): ListValidator | undefined {
  const entries: ListValidator['entries'] = [];
  let outerSchema: Record<string, unknown> = schema;
  for (const bound of bounds) {
    const list = (
      bound.property === undefined
        ? schema
        : (schema.properties as Record<string, Record<string, unknown>>)[bound.property]
    ) as Record<string, unknown>;
    if (typeof list.items !== 'object' || list.items === null) continue;
    const withoutItems = { ...list, items: true };
    outerSchema =
      bound.property === undefined
        ? withoutItems
        : { ...outerSchema, properties: { ...(outerSchema.properties as object), [bound.property]: withoutItems } };
    entries.push({ property: bound.property, validate: compile(false, list.items as object), schema: list.items });
  }
  return entries.length === 0 ? undefined : { outer: compile(false, outerSchema), outerSchema, entries };
}

export async function validateInTurns(
  validator: PartValidator,
  lists: ListValidator,
  data: unknown,
  problems: DescribedProblems,
): Promise<void> {
  const report = (errors: readonly ErrorObject[], schema: unknown, at: unknown, prefix: string) => {
    for (const error of withoutBranchErrors(errors)) {
      if (problems.full()) problems.skip();
      else {
        const described = withContext(error, schema, at);
        problems.add(describe({ ...described, instancePath: `${prefix}${described.instancePath}` }, validator));
      }
    }
  };
  if (!lists.outer(data)) report(lists.outer.errors ?? [], lists.outerSchema, data, '');
  for (const list of lists.entries) {
    const value =
      list.property === undefined
        ? data
        : typeof data === 'object' && data !== null
          ? (data as Record<string, unknown>)[list.property]
          : undefined;
    if (!Array.isArray(value)) continue;
    const prefix = list.property === undefined ? '' : `/${list.property.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    for (let index = 0; index < value.length; index++) {
      if (index > 0 && index % VALIDATION_ENTRIES_PER_TURN === 0) await turn();
      if (!list.validate(value[index]))
        report(list.validate.errors ?? [], list.schema, value[index], `${prefix}/${index}`);
    }
  }
}
