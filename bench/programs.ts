/**
 * Benchmark programs. Each is a codemode program: an async function body that returns a JSON value, so every
 * engine can run it unchanged and the runner can check that all engines agree on the result. Add a row to add
 * a benchmark.
 */
export interface BenchProgram {
  readonly name: string
  readonly code: string
}

export const programs: ReadonlyArray<BenchProgram> = [
  {
    name: "fib(25) recursive",
    code: `
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
return fib(25)`,
  },
  {
    name: "arith loop 1e6",
    code: `
let acc = 0
for (let i = 0; i < 1000000; i++) {
  acc = (acc + i * 3 - (i >> 1)) % 1000003
}
return acc`,
  },
]
