/**
 * A zod schema built the first time something touches it instead of when its module loads. Building a
 * schema is work (every `z.string()` runs its traits' initialisers), and a server start loads hundreds
 * of them, most for requests that may never come; building them all was about a fifth of the CPU time
 * before the first answer (decision 0139).
 *
 * The value stands in for the schema itself: properties, methods, `instanceof`, `typeof X` in types all
 * reach the one schema `build` returns, built once. So a declaration stays one declaration, with the
 * same checks and messages; only when it is built moves. Nothing here may be used at module load for
 * the saving to hold (composing lazy schemas inside another lazy schema's builder is fine).
 */
export function lazySchema<T extends object>(build: () => T): T {
  let schema: T | undefined;
  const real = (): T => (schema ??= build());
  return new Proxy(Object.create(null) as T, {
    get: (_target, key) => Reflect.get(real(), key),
    has: (_target, key) => Reflect.has(real(), key),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    ownKeys: () => Reflect.ownKeys(real()),
    // Reported configurable: a proxy may not claim a non-configurable property its (empty) target lacks.
    getOwnPropertyDescriptor: (_target, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
  });
}
