import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { describe, expect, it } from "vitest"
import { config } from "../../src/server/config.ts"

const read = (env: Record<string, string>) =>
  Effect.runPromise(Effect.provide(config, ConfigProvider.layer(ConfigProvider.fromUnknown(env))))

describe("server config", () => {
  it("has the documented defaults", async () => {
    const c = await read({})
    expect(c.port).toBe(8080)
    expect(c.host).toBe("0.0.0.0")
    expect(Option.isNone(c.databaseUrl)).toBe(true)
    expect(c.pgliteDir).toBe("./data/pglite")
    expect(Option.isNone(c.apiKey)).toBe(true)
    expect(c.maxBodyBytes).toBe(1024 * 1024)
    expect(c.leaseMs).toBe(15_000)
  })

  it("reads the environment, treating empty values as absent", async () => {
    const c = await read({ PORT: "9000", DATABASE_URL: "postgres://x@h/db", CODEMODE_API_KEY: "k", CODEMODE_LEASE_MS: "500" })
    expect(c.port).toBe(9000)
    expect(Option.map(c.databaseUrl, Redacted.value)).toStrictEqual(Option.some("postgres://x@h/db"))
    expect(Option.map(c.apiKey, Redacted.value)).toStrictEqual(Option.some("k"))
    expect(c.leaseMs).toBe(500)
    expect(Option.isNone((await read({ DATABASE_URL: "" })).databaseUrl)).toBe(true)
    expect(Option.isNone((await read({ CODEMODE_API_KEY: "" })).apiKey)).toBe(true)
  })

  it("refuses nonsense", async () => {
    await expect(read({ PORT: "http" })).rejects.toBeDefined()
    await expect(read({ CODEMODE_LEASE_MS: "0" })).rejects.toBeDefined()
    await expect(read({ PORT: "70000" })).rejects.toBeDefined()
  })
})
