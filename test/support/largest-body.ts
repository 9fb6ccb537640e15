import { INT32_MIN } from '../../src/domain/limits.js';

/**
 * The largest JSON value a schema accepts, as an upper bound of a valid body's size: every optional
 * field present, every string at its maxLength (one byte a character: the ASCII a TPP's tools send),
 * every array at its maxItems, the longest choice of every enum and alternative. Values need not
 * pass the schema's patterns; only their length counts.
 */
export type SchemaNode = {
  $id?: string;
  $ref?: string;
  type?: string | readonly string[];
  enum?: readonly unknown[];
  anyOf?: readonly SchemaNode[];
  oneOf?: readonly SchemaNode[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  maxItems?: number;
  maxLength?: number;
};

export interface LargestOptions {
  /** Schemas that $ref names, by $id. */
  schemas: readonly SchemaNode[];
  /** At most this many entries for arrays of the given $ref (say, one structured reference per bulk entry). */
  itemsOf?: Record<string, number>;
}

const jsonLength = (value: unknown) => JSON.stringify(value).length;
const longest = (values: unknown[]) => values.reduce((a, b) => (jsonLength(b) > jsonLength(a) ? b : a));

export function largestInstance(schema: SchemaNode, options: LargestOptions): unknown {
  const byId = new Map(options.schemas.filter((s) => s.$id !== undefined).map((s) => [`${s.$id}#`, s]));
  const build = (node: SchemaNode): unknown => {
    if (node.$ref !== undefined) {
      const target = byId.get(node.$ref);
      if (target === undefined) throw new Error(`no schema ${node.$ref}`);
      return build(target);
    }
    if (node.enum !== undefined) return longest([...node.enum]);
    const choices = node.anyOf ?? node.oneOf;
    if (choices !== undefined) return longest(choices.map(build));
    const type = Array.isArray(node.type) ? node.type[0] : node.type;
    if (type === 'object' || node.properties !== undefined) {
      return Object.fromEntries(Object.entries(node.properties ?? {}).map(([name, field]) => [name, build(field)]));
    }
    if (type === 'array') {
      if (node.maxItems === undefined || node.items === undefined)
        throw new Error('an array without maxItems or items');
      const cap = node.items.$ref === undefined ? undefined : options.itemsOf?.[node.items.$ref];
      return Array.from({ length: Math.min(node.maxItems, cap ?? node.maxItems) }, () => build(node.items!));
    }
    if (type === 'string') {
      if (node.maxLength === undefined) throw new Error('a string without maxLength');
      return 'x'.repeat(node.maxLength);
    }
    if (type === 'integer' || type === 'number') return INT32_MIN; // the longest integer the schemas take, as written
    if (type === 'boolean') return false;
    return null;
  };
  return build(schema);
}
