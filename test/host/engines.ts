/**
 * The host boundary must behave the same on both evaluators: end-to-end suites run once per engine through
 * `makeFor(engine)`, a `CodeMode.make` with the engine filled in. The engines are test/engines.ts's (the VM
 * alone in round-trip mode).
 */
import { CodeMode } from "../../src/index.ts"
import type { Extensions } from "../../src/host/codemode.ts"
import type { Hooks } from "../../src/host/hooks.ts"
import type { ToolTree } from "../../src/host/tree.ts"
import { engines, type Engine } from "../engines.ts"

export const ENGINES: ReadonlyArray<Engine> = engines

export type EngineName = Engine

export const makeFor =
  (engine: EngineName) =>
  <const T extends ToolTree = {}, H extends Hooks = Hooks, const X extends Extensions = []>(options: CodeMode.Options<T, H, X> = {}) =>
    CodeMode.make<T, H, X>({ ...options, engine })
