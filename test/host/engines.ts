/**
 * The host boundary must behave the same on both evaluators: end-to-end suites run once per engine through
 * `makeFor(engine)`, a `CodeMode.make` with the engine filled in.
 */
import { CodeMode } from "../../src/index.ts"
import type { Hooks } from "../../src/host/hooks.ts"
import type { ToolTree } from "../../src/host/tree.ts"

export const ENGINES = ["legacy", "vm"] as const

export type EngineName = (typeof ENGINES)[number]

export const makeFor =
  (engine: EngineName) =>
  <const T extends ToolTree = {}, H extends Hooks = Hooks>(options: CodeMode.Options<T, H> = {}) =>
    CodeMode.make<T, H>({ ...options, engine })
