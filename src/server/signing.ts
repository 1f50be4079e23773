/**
 * Standard Webhooks 1.0 signing and verification
 * (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md).
 *
 * - Secrets ("Signature scheme" → "Symmetric"): `whsec_` + base64 of 24–64 random bytes; the HMAC key is the
 *   decoded bytes, not the string.
 * - Headers ("Webhook headers"): `webhook-id` (here the call key, stable across retries so receivers can
 *   de-duplicate), `webhook-timestamp` (integer Unix seconds), `webhook-signature` (a space-separated list of
 *   `v1,<base64 signature>`; more than one during a secret rotation).
 * - Signed content ("Signature scheme"): `${id}.${timestamp}.${body}` over the exact raw body bytes sent.
 * - Verification ("Verifying webhook authenticity"): constant-time comparison, and reject timestamps more than
 *   five minutes from now ("Replay attacks").
 */
import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from "node:crypto"

const PREFIX = "whsec_"

/** A new secret: 32 random bytes. */
export const newSecret = (): string => PREFIX + randomBytes(32).toString("base64")

/**
 * HMAC keys by secret, each made once: from the secret's text, a signature decoded it and made a key of the bytes
 * every time (10 of its 12 us, warm). Bounded: the secrets of tools since rotated or removed go with the rest.
 */
const keys = new Map<string, KeyObject>()
const MAX_KEYS = 1024

const key = (secret: string): KeyObject => {
  let k = keys.get(secret)
  if (k === undefined) {
    if (keys.size >= MAX_KEYS) keys.clear()
    k = createSecretKey(Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64"))
    keys.set(secret, k)
  }
  return k
}

/** The `v1,<base64>` signature of one message. */
export const sign = (secret: string, id: string, timestamp: number, body: string): string =>
  "v1," + createHmac("sha256", key(secret)).update(`${id}.${timestamp}.${body}`).digest("base64")

/** The three headers of a signed request. */
/** `secrets`: the tool's secret, then (during a rotation's overlap) the previous one; one signature each. */
export const headers = (secrets: ReadonlyArray<string>, id: string, timestamp: number, body: string): Record<string, string> => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": secrets.map((s) => sign(s, id, timestamp, body)).join(" "),
})

export const TOLERANCE_SECONDS = 5 * 60

/** Why a request failed verification, or undefined when it is authentic. */
export const verify = (
  secret: string,
  request: { readonly headers: Readonly<Record<string, string | undefined>>; readonly body: string },
  nowSeconds: number,
): string | undefined => {
  const id = request.headers["webhook-id"]
  const timestamp = request.headers["webhook-timestamp"]
  const signatures = request.headers["webhook-signature"]
  if (id === undefined || timestamp === undefined || signatures === undefined) return "missing webhook headers"
  if (!/^\d+$/.test(timestamp)) return "invalid webhook-timestamp"
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return "webhook-timestamp outside the tolerance"
  const expected = Buffer.from(sign(secret, id, Number(timestamp), request.body).slice(3), "base64")
  for (const candidate of signatures.split(" ")) {
    const [version, value] = candidate.split(",", 2)
    if (version !== "v1" || value === undefined) continue
    const given = Buffer.from(value, "base64")
    if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined
  }
  return "no matching signature"
}
