/**
 * The engines every program-running test runs on. Tests that execute programs loop over `engines` (with
 * `describe.each(engines)` or a plain loop) instead of copying themselves per engine, so the whole suite checks
 * that the tree-walker ("legacy", the default) and the bytecode VM are one language.
 */
import type { Engine } from "../src/host/codemode.ts"

export const engines: ReadonlyArray<Engine> = ["legacy", "vm"]

export type { Engine }
