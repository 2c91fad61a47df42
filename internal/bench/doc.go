// Package bench is lockbench's measurement engine: it runs lock workloads
// against a target (embedded miniredis, a Redis URL, several independent
// nodes for Redlock, a Redis Cluster, or a redis-server it spawns), records
// every latency in per-goroutine HDR histograms that are merged afterwards,
// and writes the result as text tables, versioned JSON, Go benchmark lines
// or a self-contained HTML page.
//
// What each workload measures, and what it does not:
//
//   - latency: one client, uncontended. Acquire, renew and release of the
//     implementations are interleaved op by op, in a new random order each
//     round, with each other and with PING and SET on the same client, so
//     all see the same conditions (also the same predecessors) and every
//     figure also reads as a multiple of one round trip (PING p50). Commands on the wire are
//     counted by a go-redis hook (and a wrapper for rueidis), not assumed.
//     The renew margin holds a lease and renews it every TTL/3, as a
//     watchdog would, and records the time left on the lease at each
//     confirmed renew.
//   - contention: N clients on K keys, each holding for a hold time drawn
//     from a distribution. Closed loop for a sweep of client counts, then
//     an open loop at a fixed arrival rate whose waits are measured from
//     each request's intended start (no coordinated omission). Requests
//     still waiting when a phase ends count with the wait so far, so a
//     starved client cannot vanish from the wait distribution. Closed-loop
//     phases of three seconds or more run in slices of a second (at most
//     six, longer ones beyond six seconds),
//     interleaved across implementations, so that a machine whose speed
//     drifts shifts them all alike.
//   - safety: holders pause inside the critical section for longer than
//     the TTL, then write to a protected resource that records each write's
//     order (fencing token, or the grant order lockbench saw for locks that
//     issue none). It counts overlapping critical sections and stale writes
//     (a write after a later holder's) accepted, with and without the fence
//     checked at the resource. The pause is a sleeping goroutine, not a
//     stopped process: libraries that renew from a background goroutine are
//     left out of it rather than flattered.
//
// The TTL advice is arithmetic on measured figures, printed with its
// reasoning; it is only as good as the run's tail, which is why it adds
// headroom and asks for --hold and --pause when the caller knows better.
//
// Histograms have two significant digits (1% resolution). Figures from the
// embedded server measure miniredis, not Redis; the report says so.
package bench
