/**
 * Outbound safety of webhook calls (issue 7 "Outbound safety"): a tool URL must not reach the service's own
 * network. A URL whose host is — or resolves (DNS) to — a loopback, private (RFC 1918 10/8, 172.16/12,
 * 192.168/16; RFC 6598 100.64/10; RFC 4193 fc00::/7), link-local (169.254/16, fe80::/10) or unspecified
 * (0.0.0.0/8, ::) address is refused, unless `CODEMODE_WEBHOOK_ALLOW` allows it: a comma-separated list of host
 * names (matched exactly, case-insensitive) and addresses or CIDRs (`127.0.0.1`, `10.0.0.0/8`, `::1/128`).
 *
 * Checked twice: when a tool is registered (`check`), and at every call — where the check sits in the socket's
 * own DNS lookup (`post`), so the connection goes to exactly the address that was checked and a name that
 * resolves to a public address at registration and to a private one later (DNS rebinding) is refused then.
 * IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) are judged as the IPv4 address they carry.
 *
 * `post` is the one HTTP request a webhook makes: no redirects (a 3xx is just an answer), a request body limit
 * checked before sending, and a reply limit enforced while reading and a time limit to its end (the socket is
 * dropped past either).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns"
import { request as httpRequest, type IncomingMessage } from "node:http"
import { request as httpsRequest } from "node:https"
import { BlockList, isIP } from "node:net"

const FORBIDDEN: ReadonlyArray<readonly [string, number, "ipv4" | "ipv6"]> = [
  ["0.0.0.0", 8, "ipv4"], // unspecified / "this network"
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"],
  ["127.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["255.255.255.255", 32, "ipv4"],
  ["::", 128, "ipv6"],
  ["::1", 128, "ipv6"],
  ["fc00::", 7, "ipv6"],
  ["fe80::", 10, "ipv6"],
]

const forbidden = new BlockList()
for (const [address, prefix, type] of FORBIDDEN) forbidden.addSubnet(address, prefix, type)

/** `::ffff:a.b.c.d` → `a.b.c.d`; anything else unchanged. */
const unmap = (address: string): string => {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return m === null ? address : m[1]!
}

const family = (address: string): "ipv4" | "ipv6" => (isIP(address) === 6 ? "ipv6" : "ipv4")

export class InvalidAllowList extends Error {}

export interface Policy {
  /** Why the address may not be called, or undefined when it may. */
  readonly refusal: (address: string) => string | undefined
  readonly hostAllowed: (host: string) => boolean
}

/** The policy for a `CODEMODE_WEBHOOK_ALLOW` value; throws `InvalidAllowList` on an entry it cannot read. */
export const policy = (allow: string): Policy => {
  const hosts = new Set<string>()
  const allowed = new BlockList()
  for (const raw of allow.split(",")) {
    const entry = raw.trim()
    if (entry === "") continue
    const slash = entry.indexOf("/")
    if (slash !== -1) {
      const address = unmap(entry.slice(0, slash))
      const prefix = Number(entry.slice(slash + 1))
      const type = family(address)
      if (isIP(address) === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > (type === "ipv4" ? 32 : 128)) {
        throw new InvalidAllowList(`CODEMODE_WEBHOOK_ALLOW: ${JSON.stringify(entry)} is not a CIDR`)
      }
      allowed.addSubnet(address, prefix, type)
    } else if (isIP(unmap(entry.replace(/^\[|\]$/g, ""))) !== 0) {
      const address = unmap(entry.replace(/^\[|\]$/g, ""))
      allowed.addAddress(address, family(address))
    } else if (/^[A-Za-z0-9.-]+$/.test(entry)) hosts.add(entry.toLowerCase())
    else throw new InvalidAllowList(`CODEMODE_WEBHOOK_ALLOW: ${JSON.stringify(entry)} is not a host name, address or CIDR`)
  }
  return {
    hostAllowed: (host) => hosts.has(host.toLowerCase()),
    refusal: (raw) => {
      const address = unmap(raw)
      if (isIP(address) === 0) return `${raw} is not an IP address`
      const type = family(address)
      if (allowed.check(address, type)) return undefined
      if (forbidden.check(address, type)) {
        return `${address} is a loopback, private, link-local or unspecified address (allow it with CODEMODE_WEBHOOK_ALLOW)`
      }
      return undefined
    },
  }
}

/** A URL's host as a name or a bare address (`[::1]` → `::1`). */
const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "")

const resolveAll = (host: string): Promise<ReadonlyArray<LookupAddress>> =>
  new Promise((ok, fail) => dnsLookup(host, { all: true }, (err, addresses) => (err ? fail(err) : ok(addresses))))

/**
 * Why the URL may not be registered, or undefined. A host that does not resolve now is accepted (it fails at call
 * time like any unreachable host, and the call checks again).
 */
export const check = async (p: Policy, url: string): Promise<string | undefined> => {
  const u = new URL(url)
  const host = hostOf(u)
  if (p.hostAllowed(host)) return undefined
  if (isIP(host) !== 0) return refusedUrl(host, p.refusal(host))
  let addresses: ReadonlyArray<LookupAddress>
  try {
    addresses = await resolveAll(host)
  } catch {
    return undefined
  }
  for (const a of addresses) {
    const why = p.refusal(a.address)
    if (why !== undefined) return refusedUrl(host, why)
  }
  return undefined
}

const refusedUrl = (host: string, why: string | undefined) =>
  why === undefined ? undefined : isIP(host) !== 0 ? `The webhook host ${why}` : `The webhook host ${host} resolves to ${why}`

/** The error a refused connection fails with (its `code` is what messages show). */
export class AddressRefused extends Error {
  readonly code = "EADDRREFUSED"
}

export class ReplyTooLarge extends Error {
  readonly code = "EREPLYTOOLARGE"
}

/** No whole reply within the request's `timeoutMs`. */
export class ReplyTimedOut extends Error {
  readonly code = "ETIMEDOUT"
}

/** A `lookup` for the socket that refuses forbidden addresses: the address checked is the address connected to. */
const guardedLookup =
  (p: Policy) =>
  (hostname: string, options: LookupOptions, callback: (...args: Array<any>) => void): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err)
      for (const a of addresses) {
        const why = p.refusal(a.address)
        if (why !== undefined) return callback(new AddressRefused(`The webhook host ${hostname} resolves to ${why}`))
      }
      if (options.all) return callback(null, addresses)
      const first = addresses[0]
      if (first === undefined) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }))
      callback(null, first.address, first.family)
    })
  }

export interface PostOptions {
  readonly headers: Record<string, string>
  readonly signal: AbortSignal
  readonly maxReplyBytes: number
  /** From now until the reply's last byte: past it the request fails with `ReplyTimedOut` and its socket is dropped. */
  readonly timeoutMs: number
}

/**
 * POSTs `body` to `url` under the policy; answers the status and the reply text (never follows redirects). The timeout
 * is a timer here rather than an Effect timeout around the call, which raced two fibers per request.
 */
export const post = (p: Policy, url: string, body: string, options: PostOptions): Promise<{ status: number; text: string }> =>
  new Promise((answer, refuse) => {
    const u = new URL(url)
    const host = hostOf(u)
    const allowedHost = p.hostAllowed(host)
    if (!allowedHost && isIP(host) !== 0) {
      const why = p.refusal(host)
      if (why !== undefined) return refuse(new AddressRefused(`The webhook host ${why}`))
    }
    // Settled once: the first of the reply, a failure, the timer and the signal (each of the last two drops the socket).
    const { signal } = options
    const done = () => (clearTimeout(timer), signal.removeEventListener("abort", abort))
    const ok = (reply: { status: number; text: string }) => (done(), answer(reply))
    const fail = (e: unknown) => (done(), refuse(e))
    const bytes = Buffer.from(body)
    // The signal is heard here rather than given to the request, whose own handling of it (a stream-end watcher on
    // the request) was a quarter of making one: 6.5 of 23.8 ms in a profile of 200 resumes.
    const req = (u.protocol === "https:" ? httpsRequest : httpRequest)(
      u,
      {
        method: "POST",
        headers: { ...options.headers, "content-length": String(bytes.length) },
        ...(allowedHost ? {} : { lookup: guardedLookup(p) as never }),
      },
      (res: IncomingMessage) => {
        const chunks: Array<Buffer> = []
        let size = 0
        res.on("data", (chunk: Buffer) => {
          size += chunk.length
          if (size > options.maxReplyBytes) {
            res.destroy(new ReplyTooLarge(`the reply is larger than ${options.maxReplyBytes} bytes`))
            return
          }
          chunks.push(chunk)
        })
        res.on("error", fail)
        res.on("end", () => ok({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
      },
    )
    req.on("error", fail)
    const timer = setTimeout(() => {
      fail(new ReplyTimedOut(`no reply within ${options.timeoutMs} ms`))
      req.destroy()
    }, options.timeoutMs)
    const abort = () => {
      fail(signal.reason)
      req.destroy()
    }
    if (signal.aborted) return abort()
    signal.addEventListener("abort", abort, { once: true })
    req.end(bytes)
  })
