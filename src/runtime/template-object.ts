/**
 * Template objects of tagged templates (https://tc39.es/ecma262/#sec-gettemplateobject): the frozen array of cooked
 * strings with its frozen `raw` array. Each engine caches one per site, as [[TemplateMap]] requires.
 */
import { ArrayObject } from "./array-object.ts"
import type { JSObject } from "./object.ts"
import { SetIntegrityLevel } from "./operations.ts"
import { Property } from "./property.ts"
import type { Realm } from "./realm.ts"

/** A tagged template's strings, cooked (undefined where an escape is invalid) and raw. */
export interface TemplateSite {
  readonly kind: "template"
  readonly cooked: ReadonlyArray<string | undefined>
  readonly raw: ReadonlyArray<string>
}

/** https://tc39.es/ecma262/#sec-gettemplateobject (cached per site by the caller). */
export const CreateTemplateObject = (realm: Realm, site: TemplateSite): JSObject => {
  const raw = new ArrayObject(realm.ArrayPrototype, [...site.raw])
  const template = new ArrayObject(realm.ArrayPrototype, site.cooked.map((c) => c))
  SetIntegrityLevel(raw, "frozen")
  template.properties.set("raw", Property.data(raw, false, false, false))
  SetIntegrityLevel(template, "frozen")
  return template
}
