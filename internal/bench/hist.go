package bench

import (
	"fmt"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Histogram range: nanoseconds up to one hour, two significant digits (1%
// resolution, far below run-to-run noise). Three digits would make every
// histogram eight times larger, and runs encode and merge many of them.
const (
	histLowest  = 1
	histHighest = int64(time.Hour)
	histDigits  = 2
)

// Hist is a latency histogram for one worker. It is not safe for concurrent
// use: every goroutine records into its own Hist, and the results are merged
// after the goroutines have finished.
type Hist struct {
	h      *hdr.Histogram
	errors map[string]int64
}

// NewHist returns an empty histogram.
func NewHist() *Hist {
	return &Hist{h: hdr.New(histLowest, histHighest, histDigits), errors: map[string]int64{}}
}

// Record adds one duration; values outside the range are clamped so that no
// sample is silently lost.
func (h *Hist) Record(d time.Duration) {
	v := int64(d)
	if v < histLowest {
		v = histLowest
	}
	if v > histHighest {
		v = histHighest
	}
	_ = h.h.RecordValue(v) // cannot fail after clamping
}

// Fail counts one failed operation under cause.
func (h *Hist) Fail(cause string) { h.errors[cause]++ }

// Merge adds the samples and errors of o into h.
func (h *Hist) Merge(o *Hist) {
	if o == nil {
		return
	}
	h.h.Merge(o.h)
	for k, v := range o.errors {
		h.errors[k] += v
	}
}

// Count is the number of successful samples.
func (h *Hist) Count() int64 { return h.h.TotalCount() }

// Errors is the number of failed operations.
func (h *Hist) Errors() int64 {
	var n int64
	for _, v := range h.errors {
		n += v
	}
	return n
}

// Quantile returns the value at q (0..1).
func (h *Hist) Quantile(q float64) time.Duration {
	if h.h.TotalCount() == 0 {
		return 0
	}
	return time.Duration(h.h.ValueAtQuantile(q * 100))
}

// Max returns the largest sample (at histogram precision).
func (h *Hist) Max() time.Duration { return time.Duration(h.h.Max()) }

// Min returns the smallest sample (at histogram precision).
func (h *Hist) Min() time.Duration { return time.Duration(h.h.Min()) }

// Mean returns the mean sample.
func (h *Hist) Mean() time.Duration { return time.Duration(h.h.Mean()) }

// CDF returns points (value, fraction at or below) for plotting.
func (h *Hist) CDF() [][2]float64 {
	var pts [][2]float64
	total := float64(h.h.TotalCount())
	if total == 0 {
		return nil
	}
	for _, b := range h.h.CumulativeDistribution() {
		pts = append(pts, [2]float64{float64(b.ValueAt), float64(b.Count) / total})
	}
	return pts
}

// Op is the JSON form of a histogram: summary figures for people and the
// encoded HDR snapshot that lets runs be merged without losing the tail.
type Op struct {
	Count  int64            `json:"count"`
	Errors map[string]int64 `json:"errors,omitempty"`
	P50    int64            `json:"p50_ns"`
	P90    int64            `json:"p90_ns"`
	P99    int64            `json:"p99_ns"`
	P999   int64            `json:"p999_ns"`
	Min    int64            `json:"min_ns"`
	Max    int64            `json:"max_ns"`
	Mean   int64            `json:"mean_ns"`
	HDR    string           `json:"hdr"`
}

// Op summarises h for the report.
func (h *Hist) Op() *Op {
	enc, err := h.h.Encode(hdr.V2CompressedEncodingCookieBase)
	if err != nil {
		// Encoding an in-memory histogram only fails on a bug in the
		// library; keep the summary rather than lose the report.
		enc = nil
	}
	o := &Op{
		Count: h.Count(),
		P50:   int64(h.Quantile(0.50)),
		P90:   int64(h.Quantile(0.90)),
		P99:   int64(h.Quantile(0.99)),
		P999:  int64(h.Quantile(0.999)),
		Min:   int64(h.Min()),
		Max:   int64(h.Max()),
		Mean:  int64(h.Mean()),
		HDR:   string(enc),
	}
	if len(h.errors) > 0 {
		o.Errors = map[string]int64{}
		for k, v := range h.errors {
			o.Errors[k] = v
		}
	}
	return o
}

// Hist decodes the snapshot in o back into a histogram.
func (o *Op) Hist() (*Hist, error) {
	h := NewHist()
	if o == nil {
		return h, nil
	}
	if o.HDR != "" {
		d, err := hdr.Decode([]byte(o.HDR))
		if err != nil {
			return nil, fmt.Errorf("decoding histogram: %w", err)
		}
		h.h.Merge(d)
	}
	for k, v := range o.Errors {
		h.errors[k] += v
	}
	return h, nil
}

// mergeHists merges per-worker histograms into one.
func mergeHists(hs []*Hist) *Hist {
	out := NewHist()
	for _, h := range hs {
		out.Merge(h)
	}
	return out
}
