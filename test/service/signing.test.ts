import { describe, expect, it } from "vitest"
import { headers, newSecret, sign, verify } from "../../src/server/signing.ts"

describe("Standard Webhooks signing", () => {
  it("matches the reference example of the specification", () => {
    // The example secret, message id, timestamp and payload used by the standard-webhooks reference libraries.
    expect(sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}')).toBe(
      "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    )
  })

  it("makes whsec_ secrets of 32 random bytes", () => {
    const s = newSecret()
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    expect(Buffer.from(s.slice(6), "base64")).toHaveLength(32)
    expect(newSecret()).not.toBe(s)
  })

  it("verifies what it signs and rejects tampering, other secrets and stale timestamps", () => {
    const secret = newSecret()
    const body = JSON.stringify({ type: "call", key: "run-1:0", input: { a: 1 } })
    const now = 1_800_000_000
    const h = headers([secret], "run-1:0", now, body)
    expect(verify(secret, { headers: h, body }, now)).toBeUndefined()
    expect(verify(secret, { headers: h, body: body.replace("1", "2") }, now)).toBe("no matching signature")
    expect(verify(newSecret(), { headers: h, body }, now)).toBe("no matching signature")
    expect(verify(secret, { headers: { ...h, "webhook-id": "run-1:1" }, body }, now)).toBe("no matching signature")
    expect(verify(secret, { headers: h, body }, now + 301)).toBe("webhook-timestamp outside the tolerance")
    expect(verify(secret, { headers: {}, body }, now)).toBe("missing webhook headers")
  })

  it("accepts any of several signatures (secret rotation)", () => {
    const [old, next] = [newSecret(), newSecret()]
    const body = "{}"
    const both = `${sign(old, "k", 5, body)} ${sign(next, "k", 5, body)}`
    const h = { "webhook-id": "k", "webhook-timestamp": "5", "webhook-signature": both }
    expect(verify(old, { headers: h, body }, 5)).toBeUndefined()
    expect(verify(next, { headers: h, body }, 5)).toBeUndefined()
  })
})
