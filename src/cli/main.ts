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
if (process.argv[2] === "serve" && !help) {
  process.stderr.write("codemode starting\n")
  // The service's requests are short-lived: once V8 sees objects of an allocation site survive (a request's, under
  // load), it allocates that site's objects in old space, where they live until a full GC and keep the young
  // objects they refer to alive through every scavenge. Set before the service allocates anything; its program
  // processes get the same flag (server/isolation/process.ts).
  process.getBuiltinModule("node:v8").setFlagsFromString("--no-allocation-site-pretenuring")
}
const { directory } = enableCompileCache()
if (directory !== undefined) process.env["NODE_COMPILE_CACHE"] ??= directory
await import("./app.ts")
