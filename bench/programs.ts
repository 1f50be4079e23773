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
  {
    name: "callbacks: sort 20k",
    code: `
const xs = Array.from({ length: 20000 }, (_, i) => (i * 7919) % 10007)
xs.sort((a, b) => a - b)
return xs[0] + xs[19999] + xs.filter((x) => x % 2 === 0).length`,
  },
  {
    name: "objects: records 5k",
    code: `
class Account {
  constructor(id, balance) { this.id = id; this.balance = balance }
  deposit(n) { this.balance += n; return this }
}
const accounts = []
for (let i = 0; i < 5000; i++) accounts.push(new Account("a" + i, i % 100))
let total = 0
for (const a of accounts) total += a.deposit(1).balance
const { id, balance } = accounts[4999]
return { total, id, balance, json: JSON.stringify(accounts.slice(0, 2)) }`,
  },
  // Small programs: what an agent typically sends. Each run is cold for the program (parse, analysis or
  // compilation, a fresh realm); the fixed cost of a run dominates.
  {
    name: "small: data shaping",
    code: `
const orders = Array.from({ length: 40 }, (_, i) => ({ id: "o" + i, total: (i * 37) % 101, status: i % 3 === 0 ? "open" : "closed" }))
const open = orders.filter((o) => o.status === "open")
const top = [...open].sort((a, b) => b.total - a.total).slice(0, 5)
return { count: open.length, top: top.map((o) => \`\${o.id}:\${o.total}\`), sum: orders.reduce((s, o) => s + o.total, 0) }`,
  },
  {
    name: "small: async steps",
    code: `
const step = async (name, ms) => ({ name, ms })
const results = []
for (const [name, ms] of [["fetch", 3], ["parse", 1], ["store", 2]]) results.push(await step(name, ms))
const all = await Promise.all(results.map(async (r) => r.name.toUpperCase()))
return { results, all }`,
  },
  {
    name: "small: one expression",
    code: `return 1 + 2`,
  },
]
