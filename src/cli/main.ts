#!/usr/bin/env node
/**
 * The `codemode` bin. `serve` says it is starting before anything is loaded: Effect's CLI and platform modules
 * take a while to import (seconds on a busy machine), and a silent server looks hung. Node's compile cache is
 * turned on before they load, so every start after the first reuses their compiled code (a cache that cannot be
 * opened only means a slower start: enableCompileCache reports it rather than throws). The command line itself is
 * parsed by app.ts.
 */
import { enableCompileCache } from "node:module"

if (process.argv[2] === "serve") process.stderr.write("codemode starting\n")
enableCompileCache()
await import("./app.ts")
