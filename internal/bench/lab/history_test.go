package lab

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

// seqWrites numbers writes in the order given, as the resource would.
func seqWrites(ws ...Write) []Write {
	for i := range ws {
		ws[i].Seq = int64(i + 1)
	}
	return ws
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    History
		want Verdict
	}{{
		name: "clean: one holder after another",
		h: History{Initial: 10, Final: 13,
			Grants: []Grant{{Holder: 1, Order: 1, Granted: 1 * ms}, {Holder: 2, Order: 2, Granted: 5 * ms}, {Holder: 1, Order: 3, Granted: 9 * ms}},
			Writes: seqWrites(
				Write{Holder: 1, Order: 1, Read: 10, Wrote: 11, Accepted: true},
				Write{Holder: 2, Order: 2, Read: 11, Wrote: 12, Accepted: true},
				Write{Holder: 1, Order: 3, Read: 12, Wrote: 13, Accepted: true}),
		},
		want: Verdict{Grants: 3, Writes: 3, Accepted: 3, Recovery: nil},
	}, {
		name: "paused holder, no fence: its late write lands over its successor's",
		h: History{Initial: 5, Final: 6,
			Grants: []Grant{{Holder: 1, Order: 1, Granted: 1 * ms}, {Holder: 2, Order: 2, Granted: 60 * ms}},
			Writes: seqWrites(
				Write{Holder: 2, Order: 2, Read: 5, Wrote: 6, Accepted: true},
				Write{Holder: 1, Order: 1, Read: 5, Wrote: 6, Accepted: true}),
			Faults: []Fault{{Kind: "pause", Holder: 1, At: 2 * ms, Until: 200 * ms}},
		},
		want: Verdict{Grants: 2, Writes: 2, Accepted: 2, StaleAccepted: 1, Overlaps: 1, LostUpdates: 1, Recovery: []time.Duration{58 * ms}},
	}, {
		name: "paused holder, fence checked: its late write is refused",
		h: History{Fenced: true, Initial: 5, Final: 6,
			Grants: []Grant{{Holder: 1, Order: 1, Granted: 1 * ms}, {Holder: 2, Order: 2, Granted: 60 * ms}},
			Writes: seqWrites(
				Write{Holder: 2, Order: 2, Read: 5, Wrote: 6, Accepted: true},
				Write{Holder: 1, Order: 1, Read: 5, Wrote: 6}),
			Faults: []Fault{{Kind: "pause", Holder: 1, At: 2 * ms, Until: 200 * ms}},
		},
		want: Verdict{Grants: 2, Writes: 2, Accepted: 1, StaleRejected: 1, Recovery: []time.Duration{58 * ms}},
	}, {
		// The fence stops a late write only once the successor has
		// written: one that lands first is accepted, and the successor's
		// write, based on a read from before it, loses an update.
		name: "paused holder's write lands before its successor's",
		h: History{Fenced: true, Initial: 5, Final: 6,
			Grants: []Grant{{Holder: 1, Order: 1, Granted: 1 * ms}, {Holder: 2, Order: 2, Granted: 60 * ms}},
			Writes: seqWrites(
				Write{Holder: 1, Order: 1, Read: 5, Wrote: 6, Accepted: true},
				Write{Holder: 2, Order: 2, Read: 5, Wrote: 6, Accepted: true}),
		},
		want: Verdict{Grants: 2, Writes: 2, Accepted: 2, Overlaps: 1, LostUpdates: 1},
	}, {
		name: "crashed holder: no write, the next grant waits for the ttl",
		h: History{Initial: 0, Final: 1,
			Grants: []Grant{{Holder: 1, Order: 1, Granted: 1 * ms}, {Holder: 2, Order: 2, Granted: 103 * ms}},
			Writes: seqWrites(Write{Holder: 2, Order: 2, Read: 0, Wrote: 1, Accepted: true}),
			Faults: []Fault{{Kind: "crash", Holder: 1, At: 3 * ms, Until: 3 * ms}},
		},
		want: Verdict{Grants: 2, Writes: 1, Accepted: 1, Recovery: []time.Duration{100 * ms}},
	}, {
		name: "refused for another reason, fault nobody recovered from",
		h: History{Fenced: true, Initial: 0, Final: 1,
			Grants: []Grant{{Holder: 1, Order: 7, Granted: 1 * ms}, {Holder: 2, Order: 9, Granted: 2 * ms}},
			Writes: seqWrites(
				Write{Holder: 1, Order: 7, Read: 0, Wrote: 1, Accepted: true},
				Write{Holder: 2, Order: 9, Read: 1, Wrote: 2}),
			Faults: []Fault{{Kind: "restart", At: 50 * ms, Until: 80 * ms}},
		},
		want: Verdict{Grants: 2, Writes: 2, Accepted: 1, Refused: 1, Recovery: []time.Duration{-1}},
	}, {
		// After a restart without persistence an unfenced lock is granted
		// to two holders at once; their writes interleave.
		name: "double grant after a restart",
		h: History{Initial: 0, Final: 2,
			Grants: []Grant{{Holder: 1, Order: 1, Granted: 1 * ms}, {Holder: 2, Order: 2, Granted: 21 * ms}, {Holder: 3, Order: 3, Granted: 22 * ms}},
			Writes: seqWrites(
				Write{Holder: 1, Order: 1, Read: 0, Wrote: 1, Accepted: true},
				Write{Holder: 3, Order: 3, Read: 1, Wrote: 2, Accepted: true},
				Write{Holder: 2, Order: 2, Read: 1, Wrote: 2, Accepted: true}),
			Faults: []Fault{{Kind: "restart", At: 20 * ms, Until: 20 * ms}},
		},
		want: Verdict{Grants: 3, Writes: 3, Accepted: 3, StaleAccepted: 1, Overlaps: 1, LostUpdates: 1, Recovery: []time.Duration{1 * ms}},
	}, {
		// A holder claims its fence before reading; an older grant's
		// write after that claim is refused as stale although the newer
		// grant has not written its value yet.
		name: "claim before read",
		h: History{Fenced: true, Initial: 5, Final: 6,
			Grants: []Grant{{Holder: 1, Order: 1, Granted: 1 * ms}, {Holder: 2, Order: 2, Granted: 60 * ms}},
			Writes: seqWrites(
				Write{Holder: 1, Order: 1, Claim: true, Accepted: true},
				Write{Holder: 2, Order: 2, Claim: true, Accepted: true},
				Write{Holder: 1, Order: 1, Read: 5, Wrote: 6},
				Write{Holder: 2, Order: 2, Read: 5, Wrote: 6, Accepted: true},
				Write{Holder: 1, Order: 1, Claim: true}),
		},
		want: Verdict{Grants: 2, Writes: 2, Accepted: 1, StaleRejected: 1, Claims: 3, ClaimsRefused: 1},
	}, {
		// A failover that lost the counter's last INCR issues a fence
		// again: the second grant with it is a duplicate, refused as stale.
		name: "fence issued twice",
		h: History{Fenced: true, Initial: 0, Final: 1,
			Grants: []Grant{{Holder: 1, Order: 40, Token: "a", Granted: 1 * ms}, {Holder: 2, Order: 40, Token: "b", Granted: 9 * ms}},
			Writes: seqWrites(
				Write{Holder: 1, Order: 40, Token: "a", Claim: true, Accepted: true},
				Write{Holder: 2, Order: 40, Token: "b", Claim: true},
				Write{Holder: 2, Order: 40, Token: "b", Read: 0, Wrote: 1},
				Write{Holder: 1, Order: 40, Token: "a", Read: 0, Wrote: 1, Accepted: true}),
		},
		want: Verdict{Grants: 2, Writes: 2, Accepted: 1, StaleRejected: 1, Claims: 2, ClaimsRefused: 1},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got := Check(tc.h)
			if !verdictEqual(got, tc.want) {
				t.Errorf("Check:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func verdictEqual(a, b Verdict) bool {
	return slices.Equal(a.Recovery, b.Recovery) &&
		[10]int64{int64(a.Grants), int64(a.Writes), int64(a.Accepted), int64(a.StaleAccepted), int64(a.StaleRejected), int64(a.Refused), int64(a.Claims), int64(a.ClaimsRefused), int64(a.Overlaps), a.LostUpdates} ==
			[10]int64{int64(b.Grants), int64(b.Writes), int64(b.Accepted), int64(b.StaleAccepted), int64(b.StaleRejected), int64(b.Refused), int64(b.Claims), int64(b.ClaimsRefused), int64(b.Overlaps), b.LostUpdates}
}

// TestCheckGoesByResourceOrder: the verdict depends on the resource's
// sequence, not on the order writes were reported in.
func TestCheckGoesByResourceOrder(t *testing.T) {
	h := History{Initial: 5, Final: 6,
		Grants: []Grant{{Holder: 1, Order: 1}, {Holder: 2, Order: 2}},
		Writes: []Write{
			{Holder: 1, Order: 1, Read: 5, Wrote: 6, Accepted: true, Seq: 2},
			{Holder: 2, Order: 2, Read: 5, Wrote: 6, Accepted: true, Seq: 1},
		}}
	if v := Check(h); v.StaleAccepted != 1 || v.Overlaps != 1 {
		t.Fatalf("writes reported out of resource order: %+v", v)
	}
}

// TestHistoryJSON: a history survives JSON, so the checker can be rerun on
// a saved run.
func TestHistoryJSON(t *testing.T) {
	h := History{Impl: "safelock", Fenced: true, Initial: 1, Final: 2,
		Grants: []Grant{{Holder: 1, Order: 1800000000000001, Token: "t", Granted: 3 * ms}},
		Writes: []Write{{Holder: 1, Order: 1800000000000001, Token: "t", Read: 1, Wrote: 2, Accepted: true, Seq: 1, At: 4 * ms}},
		Faults: []Fault{{Kind: "pause", Holder: 1, At: 5 * ms, Until: 9 * ms}},
	}
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var back History
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !verdictEqual(Check(back), Check(h)) || back.Grants[0] != h.Grants[0] || back.Writes[0] != h.Writes[0] || back.Faults[0] != h.Faults[0] {
		t.Fatalf("round trip changed the history: %+v", back)
	}
}

// TestWriteHTML: the page has a timeline per scenario with each write
// drawn in the colour of its outcome, and the faults.
func TestWriteHTML(t *testing.T) {
	h := History{Impl: "safelock", Resource: "sql", Initial: 5, Final: 6,
		Grants: []Grant{{Holder: 1, Order: 1, Granted: 1 * ms}, {Holder: 2, Order: 2, Granted: 60 * ms}},
		Writes: seqWrites(
			Write{Holder: 2, Order: 2, Read: 5, Wrote: 6, Accepted: true, At: 70 * ms},
			Write{Holder: 1, Order: 1, Read: 5, Wrote: 6, Accepted: true, At: 210 * ms}),
		Faults: []Fault{{Kind: Pause, Holder: 1, At: 2 * ms, Until: 200 * ms}},
	}
	res := &Result{Processes: 2, TTL: 50 * ms, Scenarios: []Scenario{{History: h, Verdict: Check(h)}}}
	var b strings.Builder
	if err := res.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<h2>safelock, sql resource, fence off, 1 pause</h2>", `fill="` + colour[StaleAccepted] + `"><title>stale write accepted`, `fill="` + colour[Accepted] + `"><title>write accepted`, "<title>pause at 2ms, until 200ms</title>", "</svg>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
