/**
 * Modules (spec "Extension.make": "Programs load globals the way Node code loads modules"). There are no packages:
 * a module is a global, named as Node names its built-in module, with or without `node:`.
 *
 * - An extension's global that is an object or a function is the module of its name (`fs`, `crypto`, `fetch`),
 *   and each object-valued property of an object global is a module too (`fs/promises` is `fs.promises`, as
 *   `path/posix`, `util/types` or `dns/promises` are in Node).
 * - Unless an extension provides them, `url`, `util` and `buffer` are made of the built-in globals that Node's
 *   modules of those names export: `url` is `{ URL, URLSearchParams }`, `util` is `{ TextEncoder, TextDecoder }`,
 *   `buffer` is `{ atob, btoa }` plus the `Buffer`, `Blob` and `File` globals when extensions provide them.
 * - Anything else is not found: `require` throws Node's `Error: Cannot find module 'x'` (code
 *   `MODULE_NOT_FOUND`), an import fails with the same message and code `ERR_MODULE_NOT_FOUND`.
 *
 * `require(name)` is a global function returning the module itself. Import declarations and `import()` are
 * rewritten by the front end (language/modules.ts) into calls of two hidden globals that programs cannot name:
 * `%import%(specifier, names)` gives the module's namespace at once (a SyntaxError when one of the imported
 * `names` is missing, as Node reports at link time), `%import()%(specifier)` a promise of it. A namespace is a
 * frozen null-prototype object with the module as `default` and its own enumerable properties.
 *
 * Modules are fixed when the realm is made (registered under `%codemode.module[...]%`), so a program that
 * reassigns a global or one of its properties does not change what `require` returns.
 */
import { CreateBuiltinFunction } from "../runtime/builtin.ts"
import { ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { ToString } from "../runtime/conversions.ts"
import { CreateErrorObject, toThrowCompletion } from "../runtime/errors.ts"
import type { NativeImpl } from "../runtime/function-object.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { JSObject } from "../runtime/object.ts"
import { FulfillPromise, NewIntrinsicPromiseCapability, RejectPromise } from "../runtime/promise.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import { WellKnownSymbols, type Value } from "../runtime/value.ts"
import { DYNAMIC_IMPORT_HOOK, IMPORT_HOOK } from "../language/modules.ts"
import { globalName } from "./sandbox-extensions.ts"

export const REQUIRE_GLOBAL = "require"

const moduleName = (name: string): string => `%codemode.module[${JSON.stringify(name)}]%`

/** Node's modules that the built-in globals provide, by the globals they export. */
const BUILTIN_MODULES: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["url", ["URL", "URLSearchParams"]],
  ["util", ["TextEncoder", "TextDecoder"]],
  ["buffer", ["atob", "btoa", "Buffer", "Blob", "File"]],
]

/** A module of `exported` built-in globals (those of the realm's global object that it has). */
const builtinModule = (realm: Realm, exported: ReadonlyArray<string>): JSObject => {
  const o = new JSObject(realm.ObjectPrototype)
  for (const global of exported) {
    const value = realm.globalObject.properties.get(global)?.value
    if (value !== undefined) o.properties.set(global, Property.data(value))
  }
  return o
}

/**
 * What every realm has alike: the modules of the built-in globals, `require` and the import hooks. The process's
 * template realm gets them once (realm-template.ts) and each run's fork twins what it uses.
 */
export const installBuiltinModules = (realm: Realm): void => {
  for (const [name, exported] of BUILTIN_MODULES) realm.register(moduleName(name), builtinModule(realm, exported))
  const require = CreateBuiltinFunction(realm, "codemode.require", REQUIRE, 1, REQUIRE_GLOBAL)
  realm.register("%codemode.require%", require)
  realm.globalObject.properties.set(REQUIRE_GLOBAL, Property.data(require, true, false, true))
  for (const [global, id, impl] of [
    [IMPORT_HOOK, "codemode.import", IMPORT],
    [DYNAMIC_IMPORT_HOOK, "codemode.dynamicImport", DYNAMIC_IMPORT],
  ] as const) {
    const hook = CreateBuiltinFunction(realm, id, impl, 1, "import")
    realm.register(`%${id}%`, hook)
    realm.globalObject.properties.set(global, Property.data(hook, false, false, false))
  }
}

/**
 * Registers a run's modules of its extensions' globals (`globals`: their names, installed already) over the
 * built-in ones (`installBuiltinModules`): an extension's module of a built-in name replaces that one, and a
 * built-in module exporting an extension's global (`buffer` with `Buffer`) is made again with it.
 */
export const installModules = (realm: Realm, globals: ReadonlyArray<string>): void => {
  for (const name of globals) {
    const value = realm.findIntrinsic(globalName(name))
    if (value === undefined) continue
    realm.register(moduleName(name), value)
    if (value.isCallable()) continue
    for (const [key, p] of value.properties.entries()) {
      if (typeof key !== "string" || p.accessor || !(p.value instanceof JSObject) || p.value.isCallable()) continue
      realm.register(moduleName(`${name}/${key}`), p.value)
    }
  }
  for (const [name, exported] of BUILTIN_MODULES) {
    if (realm.ownIntrinsics.has(moduleName(name)) || !exported.some((g) => globals.includes(g))) continue
    realm.register(moduleName(name), builtinModule(realm, exported))
  }
}

/** The module a specifier names, if any. */
const resolveModule = (realm: Realm, specifier: string): JSObject | undefined =>
  realm.findIntrinsic(moduleName(specifier.startsWith("node:") ? specifier.slice(5) : specifier))

const notFound = (realm: Realm, specifier: string, code: string): ThrowCompletion => {
  const e = CreateErrorObject(realm, "Error", `Cannot find module '${specifier}'`)
  e.properties.set("code", Property.data(code, true, true, true))
  return new ThrowCompletion(e)
}

/** `require(id)`. */
const REQUIRE: NativeImpl = (realm, _this, args) => {
  const id = args[0]
  if (typeof id !== "string") return throwTypeError(`The "id" argument must be of type string`)
  if (id === "") return throwTypeError(`The argument 'id' must be a non-empty string. Received ''`)
  const found = resolveModule(realm, id)
  if (found === undefined) throw notFound(realm, id, "MODULE_NOT_FOUND")
  return found
}

/** The module's namespace: `default` and its own enumerable properties, frozen, with no prototype. */
const namespaceOf = (realm: Realm, module: JSObject): JSObject => {
  const ns = new JSObject(null)
  const entries: Array<[string, Value]> = [["default", module]]
  for (const key of module.OwnPropertyKeys()) {
    if (typeof key !== "string" || key === "default") continue
    const p = module.GetOwnProperty(key)
    if (p !== undefined && p.enumerable && !p.accessor) entries.push([key, p.value])
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  for (const [key, value] of entries) ns.properties.set(key, Property.data(value, false, true, false))
  ns.properties.set(WellKnownSymbols.toStringTag, Property.data("Module", false, false, false))
  ns.extensible = false
  return ns
}

/** `%import%(specifier, names)`, an import declaration: the namespace, or a throw. */
const IMPORT: NativeImpl = (realm, _this, args) => {
  const [specifier, names] = args
  const found = resolveModule(realm, String(specifier))
  if (found === undefined) throw notFound(realm, String(specifier), "ERR_MODULE_NOT_FOUND")
  const ns = namespaceOf(realm, found)
  if (names instanceof ArrayObject) {
    for (let i = 0; i < names.length; i++) {
      const name = names.getOwnElement(i)
      if (typeof name === "string" && ns.properties.get(name) === undefined) {
        throw new ThrowCompletion(CreateErrorObject(realm, "SyntaxError", `The requested module '${String(specifier)}' does not provide an export named '${name}'`))
      }
    }
  }
  return ns
}

/** `%import()%(specifier)`, `import(specifier)`: a promise of the namespace; a failure rejects it. */
const DYNAMIC_IMPORT: NativeImpl = function* (realm, _this, args) {
  const specifier = args[0]
  const capability = NewIntrinsicPromiseCapability(realm)
  try {
    const text = typeof specifier === "string" ? specifier : yield* ToString(realm, specifier)
    const found = resolveModule(realm, text)
    if (found === undefined) throw notFound(realm, text, "ERR_MODULE_NOT_FOUND")
    FulfillPromise(realm, capability.promise, namespaceOf(realm, found))
  } catch (e) {
    RejectPromise(realm, capability.promise, toThrowCompletion(realm, e).value)
  }
  return capability.promise
}
