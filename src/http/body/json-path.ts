/** `$.name` for a plain name, `$["odd name"]` otherwise: how the shape pass and the schema validation write paths. */
export function appendKey(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}
