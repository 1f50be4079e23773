import { parseScript, type ESTree } from "meriyah"
import { describe, expect, it } from "vitest"
import { forEachChild, forEachNode, VISITOR_KEYS, type Node } from "../../src/language/walk.ts"

// Every kind of syntax meriyah builds nodes for (JSX aside), so the table can be checked against what it produces.
const SAMPLE = [
  '"use strict";',
  "label: for (let i = 0, j; i < 1; i++) { if (i) continue label; else break label }",
  "for (const k in o) ; for (const [a, { b = 1, ...c }] of d) ; for await (const e of f) ;",
  "while (0) ; do ; while (0)",
  "switch (x) { case 1: y; default: }",
  "try { throw new Error(`${a} and ${b}`) } catch ({ message }) { } finally { }",
  "function* g(p = 1, ...rest) { yield* p; yield }",
  "async function h() { await 0 }",
  "const arrow = async (a, [b], { c }) => a ?? b?.c?.[d]?.(e)",
  "class K extends (Base) { #p = 1; static s; accessor acc = 1; static { this.#p } get g() { return super.g } set g(v) {} m() { return #p in this } }",
  "@dec class D { @dec m() {} @dec f = 1 }",
  "x = function () { new.target }; tag`x${y}`; x = { a, b: 1, [c]: 2, ...d, get e() {}, set e(v) {}, m() {} }",
  "[x, ...y] = [1, , 2]; ({ x = 1, y: [z] } = {}); x ||= y; x = a ? b : (c, d); x = (-a) ** 2 + typeof b",
  'import("m", { with: {} }); import.source("m"); x = /re/g; x = 1n; x = null; x = true',
].join(";\n")

const parseSample = (): ESTree.Program =>
  parseScript(`(async function () {${SAMPLE}\n})`, { ranges: true, loc: true, next: true, webcompat: true, raw: true, lexical: true })

// Finds every node by brute force: any object with a string `type`, reached through any property.
function allNodesByScan(root: unknown): Set<unknown> {
  const found = new Set<unknown>()
  const scan = (value: unknown): void => {
    if (typeof value !== "object" || value === null || value instanceof RegExp) return
    if (Array.isArray(value)) return value.forEach(scan)
    if (typeof (value as { type?: unknown }).type === "string") found.add(value)
    for (const [key, child] of Object.entries(value)) if (key !== "loc" && key !== "range") scan(child)
  }
  scan(root)
  return found
}

describe("walk", () => {
  it("reaches every node meriyah builds", () => {
    const program = parseSample()
    const reached = new Set<unknown>()
    forEachNode(program, (node) => reached.add(node))
    const missing = [...allNodesByScan(program)].filter((node) => !reached.has(node)).map((node) => (node as Node).type)
    expect(missing).toEqual([])
    expect(reached.size).toBeGreaterThan(200)
  })

  it("covers the node types the sample uses", () => {
    const types = new Set<string>()
    forEachNode(parseSample(), (node) => types.add(node.type))
    for (const type of types) expect(VISITOR_KEYS).toHaveProperty(type)
    expect(types.size).toBeGreaterThan(60)
  })

  it("visits children in source order", () => {
    const program = parseScript("a(b, c) + d[e]", { ranges: true })
    const starts: number[] = []
    forEachNode(program, (node) => {
      const children: Node[] = []
      forEachChild(node, (child) => children.push(child))
      for (let index = 1; index < children.length; index++) {
        starts.push(((children[index] as Node).start ?? 0) - ((children[index - 1] as Node).start ?? 0))
      }
    })
    expect(starts.every((delta) => delta > 0)).toBe(true)
  })

  it("does not recurse natively on deep nesting", () => {
    let node: Node = { type: "Identifier", name: "x" }
    for (let depth = 0; depth < 200_000; depth++) node = { type: "UnaryExpression", operator: "!", prefix: true, argument: node as ESTree.Expression }
    let count = 0
    forEachNode(node, () => count++)
    expect(count).toBe(200_001)
  })
})
