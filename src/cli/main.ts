#!/usr/bin/env node
/**
 * The `codemode` bin. `serve` says it is starting before anything is loaded: Effect's CLI and platform modules
 * take a while to import (seconds on a busy machine), and a silent server looks hung. Node's compile cache is
 * turned on before they load, so every start after the first reuses their compiled code (a cache that cannot be
 * opened only means a slower start: enableCompileCache reports it rather than throws). The service's program
 * processes (server/isolation) load the library too: the cache's folder goes into the environment they inherit,
 * since enableCompileCache covers only this process. The command line itself is parsed by app.ts.
 */
import { enableCompileCache } from "node:module"

const help = process.argv.includes("--help") || process.argv.includes("-h")
if (process.argv[2] === "serve" && !help) process.stderr.write("codemode starting\n")
const { directory } = enableCompileCache()
if (directory !== undefined) process.env["NODE_COMPILE_CACHE"] ??= directory
await import("./app.ts")
