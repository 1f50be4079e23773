/**
 * An in-process Postgres wire-protocol bridge into PGlite, so @effect/sql-pg can talk to the embedded database
 * without a socket (stack-notes §9.2, verified there). PGlite is a single session: use it with ONE connection.
 * Startup packets are untyped (int32 length, int32 code); everything after is typed (1 byte type, int32 length),
 * per https://www.postgresql.org/docs/current/protocol-message-formats.html.
 */
import type { PGlite } from "@electric-sql/pglite"
import { Duplex } from "node:stream"

const CANCEL_REQUEST_CODE = 80877102
const SSL_REQUEST_CODE = 80877103

export const pgliteStream = (db: PGlite) => (): Duplex => {
  let buf: Buffer = Buffer.alloc(0)
  let started = false
  let chain: Promise<void> = Promise.resolve()
  const duplex: Duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk])
      const messages: Array<Uint8Array> = []
      for (;;) {
        if (!started) {
          if (buf.length < 8) break
          const len = buf.readInt32BE(0)
          if (buf.length < len) break
          const code = buf.readInt32BE(4)
          const msg = buf.subarray(0, len)
          buf = buf.subarray(len)
          if (code === CANCEL_REQUEST_CODE) {
            duplex.push(null) // a single session cannot cancel its own query
            break
          }
          if (code === SSL_REQUEST_CODE) {
            duplex.push(Buffer.from("N"))
            continue
          }
          started = true
          messages.push(new Uint8Array(msg))
        } else {
          if (buf.length < 5) break
          const len = 1 + buf.readInt32BE(1)
          if (buf.length < len) break
          messages.push(new Uint8Array(buf.subarray(0, len)))
          buf = buf.subarray(len)
        }
      }
      if (messages.length > 0) {
        chain = chain
          .then(() =>
            db.runExclusive(async () => {
              for (const m of messages) {
                await db.execProtocolRawStream(m, {
                  onRawData: (data) => {
                    if (data.length) duplex.push(Buffer.from(data))
                  },
                })
              }
            }),
          )
          .catch((err) => {
            duplex.destroy(err as Error)
          })
      }
      cb()
    },
    final(cb) {
      chain.finally(() => {
        duplex.push(null)
        cb()
      })
    },
    destroy(err, cb) {
      // The client dropped the connection: never leave the shared session inside a transaction.
      chain
        .finally(() => (started && !db.closed && db.isInTransaction() ? db.exec("ROLLBACK") : undefined))
        .catch(() => {})
        .finally(() => cb(err))
    },
  })
  return duplex
}
