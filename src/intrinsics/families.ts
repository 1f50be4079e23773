/**
 * The intrinsic families, installed in this order. Append only (see index.ts); each family's file owns its
 * objects and registers them under their spec names.
 */
import type { Realm } from "../runtime/realm.ts"
import * as object from "./object.ts"
import * as func from "./function.ts"
import * as error from "./error.ts"
import * as symbol from "./symbol.ts"
import * as boolean from "./boolean.ts"
import * as iterator from "./iterator.ts"
import * as generator from "./generator.ts"
import * as array from "./array.ts"
import * as string from "./string.ts"
import * as number from "./number.ts"
import * as bigint from "./bigint.ts"
import * as math from "./math.ts"
import * as json from "./json.ts"
import * as promise from "./promise.ts"
import * as mapSet from "./map-set.ts"
import * as regexp from "./regexp.ts"
import * as date from "./date.ts"
import * as global from "./global.ts"
import * as console from "./console.ts"
import * as bytes from "./bytes.ts"
import * as encoding from "./encoding.ts"
import * as url from "./url.ts"
import * as headers from "./headers.ts"
import * as structuredClone from "./structured-clone.ts"
import * as reflect from "./reflect.ts"
import * as disposableStack from "./disposable-stack.ts"

export interface Family {
  readonly install: (realm: Realm) => void
}

export const families: ReadonlyArray<Family> = [
  object,
  func,
  error,
  symbol,
  boolean,
  iterator,
  generator,
  array,
  string,
  number,
  bigint,
  math,
  json,
  promise,
  mapSet,
  regexp,
  date,
  global,
  console,
  bytes,
  encoding,
  url,
  headers,
  structuredClone,
  reflect,
  disposableStack,
]

export const installFamilies = (realm: Realm): void => {
  for (const f of families) f.install(realm)
}
