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
    name: "sort 20k, comparator",
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
  // The kinds of work a code-mode program mostly does: data shaping over tool results with callbacks from
  // built-ins into program functions, JSON, string building and small objects (issue 14).
  {
    name: "array pipeline 20k",
    code: `
const rows = Array.from({ length: 20000 }, (_, i) => ({ id: i, price: (i * 31) % 997, qty: i % 7 }))
const lines = rows.filter((r) => r.qty > 0).map((r) => r.price * r.qty)
const total = lines.reduce((s, x) => s + x, 0)
const big = lines.filter((x) => x > 3000).length
return { total, big, some: rows.some((r) => r.price === 996), idx: rows.findIndex((r) => r.price > 990) }`,
  },
  {
    name: "JSON round trip",
    code: `
const items = []
for (let i = 0; i < 2000; i++) items.push({ id: "item-" + i, n: i, tags: ["a", "b" + (i % 5)], ok: i % 2 === 0, nested: { x: i / 4 } })
let text = ""
let count = 0
for (let k = 0; k < 5; k++) {
  text = JSON.stringify(items)
  count += JSON.parse(text).length
}
return { count, length: text.length }`,
  },
  {
    name: "string building",
    code: `
let s = ""
for (let i = 0; i < 30000; i++) s += String.fromCharCode(97 + (i % 26))
const parts = []
for (let i = 0; i < 10000; i++) parts.push("k" + i + "=" + (i * 3))
const joined = parts.join("&")
return { len: s.length, tail: s.slice(-5), joined: joined.length, upper: s.slice(0, 26).toUpperCase() }`,
  },
  {
    name: "object churn",
    code: `
function point(x, y) { return { x: x, y: y } }
function add(a, b) { return { x: a.x + b.x, y: a.y + b.y } }
let p = point(0, 0)
for (let i = 0; i < 100000; i++) p = add(p, point(i % 3, i % 5))
const copy = Object.assign({}, p, { label: "end" })
return { x: copy.x, y: copy.y, keys: Object.keys(copy) }`,
  },
  {
    name: "tool-result grouping",
    code: `
const results = Array.from({ length: 10000 }, (_, i) => ({ tool: "tool" + (i % 12), ms: (i * 13) % 250, ok: i % 9 !== 0 }))
const groups = {}
for (const r of results) {
  const g = groups[r.tool] || (groups[r.tool] = { calls: 0, ms: 0, failed: [] })
  g.calls++
  g.ms += r.ms
  if (!r.ok) g.failed.push(r.ms)
}
const summary = Object.keys(groups).sort().map((k) => ({ tool: k, calls: groups[k].calls, avg: Math.round(groups[k].ms / groups[k].calls), failed: groups[k].failed.length }))
return summary.filter((s) => s.failed > 0).sort((a, b) => b.avg - a.avg).slice(0, 5)`,
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
