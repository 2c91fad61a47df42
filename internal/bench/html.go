package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strings"
	"time"
)

// WriteHTML writes a self-contained report page: the tables and inline SVG
// plots (latency CDF, grants per second and wait p99 against clients). It
// has no scripts and loads nothing, so it can be viewed offline and
// attached to a ticket.
func (rep *Report) WriteHTML(w io.Writer) error {
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>lockbench report</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}
pre{font-size:12px;background:#f6f6f6;padding:1em;overflow-x:auto}
svg{background:#fff;border:1px solid #ddd;margin:0 1em 1em 0}
svg text{font-family:system-ui,sans-serif;font-size:11px}
.note{color:#a40}
</style></head><body>
<h1>lockbench report</h1>
`)
	for _, s := range rep.Sources {
		fmt.Fprintf(&b, "<p>Target: %s, %s</p>\n", html.EscapeString(s.Target), html.EscapeString(s.Server))
		if s.Note != "" {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", html.EscapeString(s.Note))
		}
	}
	if len(rep.Latency) > 0 {
		var series []series
		if rep.Base != nil {
			if s := cdfSeries("SET (baseline)", rep.Base.Set); s != nil {
				series = append(series, *s)
			}
		}
		for _, l := range rep.Latency {
			if s := cdfSeries(l.Impl+" acquire", l.Acquire); s != nil {
				series = append(series, *s)
			}
		}
		b.WriteString(plot("Uncontended acquire latency, CDF", "latency", "percentile", series, true, axisPercentile))
	}
	if len(rep.Contend) > 0 {
		byImpl := map[string]*series{}
		byImplWait := map[string]*series{}
		var order []string
		for _, c := range rep.Contend {
			if c.Mode != "closed" {
				continue
			}
			s, ok := byImpl[c.Impl]
			if !ok {
				s = &series{name: c.Impl}
				byImpl[c.Impl] = s
				byImplWait[c.Impl] = &series{name: c.Impl}
				order = append(order, c.Impl)
			}
			s.pts = append(s.pts, [2]float64{float64(c.Clients), c.GrantsPerSec})
			if c.Wait != nil && c.Wait.Count > 0 {
				byImplWait[c.Impl].pts = append(byImplWait[c.Impl].pts, [2]float64{float64(c.Clients), float64(c.Wait.P99)})
			}
		}
		var grants, waits []series
		for _, name := range order {
			grants = append(grants, *byImpl[name])
			waits = append(waits, *byImplWait[name])
		}
		b.WriteString(plot("Throughput against clients (closed loop)", "clients", "grants/s", grants, true, axisLinear))
		b.WriteString(plot("Wait p99 against clients (closed loop)", "clients", "wait p99", waits, true, axisDuration))
	}
	b.WriteString("<pre>")
	b.WriteString(html.EscapeString(text.String()))
	b.WriteString("</pre>\n</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

type series struct {
	name string
	pts  [][2]float64
}

func cdfSeries(name string, o *Op) *series {
	if o == nil || o.Count == 0 {
		return nil
	}
	h, err := o.Hist()
	if err != nil {
		return nil
	}
	return &series{name: name, pts: h.CDF()}
}

// y-axis kinds.
const (
	axisLinear = iota
	axisDuration
	axisPercentile // y is a fraction; drawn as -log10(1-p) so tails show
)

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"}

const maxNines = 4 // the percentile axis ends at 99.99%

// plot draws series as lines: x on a log scale when xlog, y as given.
func plot(title, xlabel, ylabel string, ss []series, xlog bool, yaxis int) string {
	const W, H, left, right, top, bottom = 680.0, 360.0, 70.0, 180.0, 30.0, 45.0
	fx := func(v float64) float64 {
		if xlog {
			return math.Log10(math.Max(v, 1e-9))
		}
		return v
	}
	fy := func(v float64) float64 {
		if yaxis == axisPercentile {
			return math.Min(-math.Log10(math.Max(1-v, 1e-12)), maxNines)
		}
		return v
	}
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), 0.0, math.Inf(-1)
	for _, s := range ss {
		for _, p := range s.pts {
			xmin, xmax = math.Min(xmin, fx(p[0])), math.Max(xmax, fx(p[0]))
			ymax = math.Max(ymax, fy(p[1]))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"%s\">\n", W, H, W, H, html.EscapeString(title))
	fmt.Fprintf(&b, "<text x=\"%.0f\" y=\"18\" font-weight=\"bold\">%s</text>\n", left, html.EscapeString(title))
	if math.IsInf(xmin, 1) {
		b.WriteString("<text x=\"100\" y=\"180\">no data</text></svg>\n")
		return b.String()
	}
	if yaxis == axisPercentile {
		ymax = maxNines
	} else {
		ymax = niceUp(ymax)
	}
	if xmax == xmin {
		xmin, xmax = xmin-0.5, xmax+0.5
	}
	if ymax <= ymin {
		ymax = ymin + 1
	}
	pw, ph := W-left-right, H-top-bottom
	px := func(x float64) float64 { return left + (x-xmin)/(xmax-xmin)*pw }
	py := func(y float64) float64 { return top + ph - (y-ymin)/(ymax-ymin)*ph }
	fmt.Fprintf(&b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#999\"/>\n", left, top, pw, ph)
	// y ticks
	for i := 0; i <= 4; i++ {
		y := ymin + (ymax-ymin)*float64(i)/4
		var label string
		switch yaxis {
		case axisPercentile:
			label = strings.TrimSuffix(fmt.Sprintf("%.4g", 100*(1-math.Pow(10, -y))), ".") + "%"
		case axisDuration:
			label = fmtDur(time.Duration(y))
		default:
			label = fmt.Sprintf("%.0f", y)
		}
		fmt.Fprintf(&b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>", left, left+pw, py(y), py(y))
		fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", left-4, py(y)+4, html.EscapeString(label))
	}
	// x ticks: powers of ten (or two for client counts) on a log axis.
	for _, x := range xTicks(xmin, xmax, xlog, xlabel == "clients") {
		var label string
		if xlabel == "latency" {
			label = fmtDur(time.Duration(math.Pow(10, x)))
		} else if xlog {
			label = fmt.Sprintf("%.0f", math.Pow(10, x))
		} else {
			label = fmt.Sprintf("%.0f", x)
		}
		fmt.Fprintf(&b, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>", px(x), px(x), top, top+ph)
		fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", px(x), top+ph+14, html.EscapeString(label))
	}
	fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", left+pw/2, H-8, html.EscapeString(xlabel))
	fmt.Fprintf(&b, "<text x=\"14\" y=\"%.1f\" transform=\"rotate(-90 14 %.1f)\" text-anchor=\"middle\">%s</text>\n", top+ph/2, top+ph/2, html.EscapeString(ylabel))
	for i, s := range ss {
		color := palette[i%len(palette)]
		pts := append([][2]float64(nil), s.pts...)
		sort.SliceStable(pts, func(a, b int) bool { return pts[a][0] < pts[b][0] })
		var coords []string
		for _, p := range pts {
			coords = append(coords, fmt.Sprintf("%.1f,%.1f", px(fx(p[0])), py(fy(p[1]))))
		}
		fmt.Fprintf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>\n", color, strings.Join(coords, " "))
		if len(pts) < 20 {
			for _, c := range coords {
				xy := strings.Split(c, ",")
				fmt.Fprintf(&b, "<circle cx=\"%s\" cy=\"%s\" r=\"2.5\" fill=\"%s\"/>", xy[0], xy[1], color)
			}
		}
		ly := top + 10 + float64(i)*16
		fmt.Fprintf(&b, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"3\"/>", W-right+10, W-right+28, ly, ly, color)
		fmt.Fprintf(&b, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", W-right+32, ly+4, html.EscapeString(s.name))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func xTicks(xmin, xmax float64, xlog, pow2 bool) []float64 {
	var ts []float64
	switch {
	case xlog && pow2:
		for v := 1.0; math.Log10(v) <= xmax+1e-9; v *= 2 {
			if math.Log10(v) >= xmin-1e-9 {
				ts = append(ts, math.Log10(v))
			}
		}
	case xlog:
		for e := math.Ceil(xmin); e <= xmax; e++ {
			ts = append(ts, e)
		}
	default:
		for i := 0; i <= 4; i++ {
			ts = append(ts, xmin+(xmax-xmin)*float64(i)/4)
		}
	}
	return ts
}

// niceUp rounds v up to 1, 2, 2.5 or 5 times a power of ten, so that a
// quarter of it is a round tick.
func niceUp(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
