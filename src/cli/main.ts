#!/usr/bin/env node
/**
 * The `codemode` bin. `serve` says it is starting before anything is loaded: Effect's CLI and platform modules
 * take a while to import (seconds on a busy machine), and a silent server looks hung. The command line itself is
 * parsed by app.ts.
 */
if (process.argv[2] === "serve") process.stderr.write("codemode starting\n")
await import("./app.ts")
