package lab

import (
	"fmt"
	"html"
	"io"
	"strings"
	"time"
)

// WriteHTML writes a self-contained page with the table and, per scenario,
// a timeline: one row per holder, a tick at each grant, a dot at each
// write coloured by what the checker made of it, and the faults as
// shaded spans (on the holder they hit, or across all rows).
func (r *Result) WriteHTML(w io.Writer) error {
	p := &printer{w: w}
	p.printf(`<!doctype html><html><head><meta charset="utf-8"><title>lockbench safety lab</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}svg{background:#fafafa;border:1px solid #ddd}
.legend span{display:inline-block;margin-right:1.2em}.dot{display:inline-block;width:.8em;height:.8em;border-radius:50%%;margin-right:.3em;vertical-align:middle}
pre{background:#f4f4f4;padding:1em;overflow:auto}</style></head><body>
<h1>lockbench safety lab</h1><pre>`)
	var table strings.Builder
	_ = r.WriteText(&table)
	p.printf("%s</pre>\n", html.EscapeString(table.String()))
	p.printf(`<p class="legend">`)
	for _, o := range []Outcome{Accepted, StaleAccepted, Overlap, StaleRefused, Refused, Claimed, ClaimRefused} {
		p.printf(`<span><span class="dot" style="background:%s"></span>%s</span>`, colour[o], outcomeName[o])
	}
	p.printf(`<span>| tick: grant; shaded: fault</span></p>` + "\n")
	for _, sc := range r.Scenarios {
		r.timeline(p, sc)
	}
	p.printf("</body></html>\n")
	return p.err
}

var colour = map[Outcome]string{
	Accepted: "#2a9d3a", StaleAccepted: "#d62728", Overlap: "#ff7f0e", StaleRefused: "#1f77b4",
	Refused: "#999", Claimed: "#bcd", ClaimRefused: "#9467bd",
}

var outcomeName = map[Outcome]string{
	Accepted: "write accepted", StaleAccepted: "stale write accepted", Overlap: "write based on a replaced value",
	StaleRefused: "stale write refused", Refused: "refused", Claimed: "fence claimed", ClaimRefused: "claim refused",
}

func (r *Result) timeline(p *printer, sc Scenario) {
	h := sc.History
	fence := "fence off"
	if h.Fenced {
		fence = "fence checked"
	}
	p.printf("<h2>%s, %s resource, %s, %s</h2>\n", html.EscapeString(h.Impl), html.EscapeString(h.Resource), fence, html.EscapeString(faultCounts(h.Faults)))
	var end time.Duration
	holders := 0
	for _, g := range h.Grants {
		end, holders = max(end, g.Granted), max(holders, g.Holder)
	}
	for _, w := range h.Writes {
		end, holders = max(end, w.At), max(holders, w.Holder)
	}
	for _, f := range h.Faults {
		end, holders = max(end, f.Until), max(holders, f.Holder)
	}
	if end <= 0 || holders == 0 {
		p.printf("<p>nothing recorded</p>\n")
		return
	}
	const width, left, rowH = 1000.0, 70.0, 22.0
	height := rowH*float64(holders) + 30
	x := func(d time.Duration) float64 { return left + (width-left-10)*float64(d)/float64(end) }
	y := func(holder int) float64 { return rowH*float64(holder-1) + 5 }
	p.printf(`<svg width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`+"\n", width, height, width, height)
	for hd := 1; hd <= holders; hd++ {
		p.printf(`<text x="4" y="%.1f" font-size="11">holder %d</text><line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#e4e4e4"/>`+"\n",
			y(hd)+14, hd, left, width-10, y(hd)+rowH/2, y(hd)+rowH/2)
	}
	for _, f := range h.Faults {
		top, hgt := 0.0, rowH*float64(holders)
		if f.Kind == Pause || f.Kind == Crash {
			top, hgt = y(f.Holder), rowH
		}
		wd := max(x(f.Until)-x(f.At), 2)
		p.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f5c542" opacity=".35"><title>%s at %v, until %v</title></rect>`+"\n",
			x(f.At), top, wd, hgt, f.Kind, f.At.Round(time.Millisecond), f.Until.Round(time.Millisecond))
	}
	for _, g := range h.Grants {
		p.printf(`<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#555"><title>grant %d at %v</title></line>`+"\n",
			x(g.Granted), x(g.Granted), y(g.Holder)+3, y(g.Holder)+rowH-3, g.Order, g.Granted.Round(time.Millisecond))
	}
	writes, outcomes := Classify(h)
	for i, w := range writes {
		rad := 3.5
		if w.Claim {
			rad = 2
		}
		p.printf(`<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s"><title>%s: grant %d read %d wrote %d at %v</title></circle>`+"\n",
			x(w.At), y(w.Holder)+rowH/2, rad, colour[outcomes[i]], outcomeName[outcomes[i]], w.Order, w.Read, w.Wrote, w.At.Round(time.Millisecond))
	}
	p.printf(`<text x="%.0f" y="%.1f" font-size="11">0</text><text x="%.0f" y="%.1f" font-size="11" text-anchor="end">%v</text>`+"\n",
		left, height-6, width-10, height-6, end.Round(time.Millisecond))
	p.printf("</svg>\n")
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, a ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, a...)
	}
}
