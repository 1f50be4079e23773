/**
 * The engines every program-running test runs on. Tests that execute programs loop over `engines` (with
 * `describe.each(engines)` or a plain loop) instead of copying themselves per engine, so the whole suite checks
 * that the tree-walker ("legacy", the default) and the bytecode VM are one language.
 */
import type { Engine } from "../src/host/codemode.ts"

/**
 * Round-trip mode (`npm run test:roundtrip`, CODEMODE_ROUNDTRIP=1) runs the suite on the VM only, every run saved
 * to bytes and restored at every host call and every few steps (src/host/roundtrip.ts): the tree-walker cannot be
 * saved, so its half of each parametrized suite is left out rather than run a second time unchanged.
 */
export const roundtrip = process.env["CODEMODE_ROUNDTRIP"] === "1"

export const engines: ReadonlyArray<Engine> = roundtrip ? ["vm"] : ["legacy", "vm"]

export type { Engine }
