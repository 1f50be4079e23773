/**
 * Round-trip mode, a test mode (spec: "Set `CODEMODE_ROUNDTRIP=1` to run the tests on the VM with every run saved
 * to bytes and restored into a brand-new runtime at every host call and every few steps"). When the variable is
 * set, `CodeMode.make` defaults to the VM and every VM run continues, at each save point, in a realm restored from
 * its own snapshot bytes (host/vm-run.ts). It is the most direct test that a run's state is data. Read once per
 * runtime, at `CodeMode.make`; this is the only environment variable the library reads.
 */
export const roundtripMode = (): boolean => typeof process !== "undefined" && process.env["CODEMODE_ROUNDTRIP"] === "1"
