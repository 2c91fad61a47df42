package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
)

// Floors are the least figures the analyzers must keep on the corpus: per
// analyzer precision and per class recall, rounded down to two decimals.
// They only rise: when a figure rises, its floor rises in the same commit
// (go run ./internal/realworld -write-floors).
type Floors struct {
	Precision map[string]float64 `json:"precision"`
	Recall    map[string]float64 `json:"recall"`
}

// floor2 rounds v down to two decimals.
func floor2(v float64) float64 { return math.Floor(v*100+1e-9) / 100 }

// FloorsOf returns the floors a score would set.
func FloorsOf(sc *Score) *Floors {
	fl := &Floors{Precision: make(map[string]float64), Recall: make(map[string]float64)}
	for _, a := range analyzersOf() {
		if r := sc.Precision[a]; r != nil {
			fl.Precision[a] = floor2(r.Value())
		} else {
			fl.Precision[a] = 1
		}
	}
	for _, c := range classOrder() {
		if r := sc.Recall[c]; r != nil {
			fl.Recall[c] = floor2(r.Value())
		}
	}
	return fl
}

// Check compares a score with the floors: a figure below its floor is a
// regression, one above it a floor to raise.
func (fl *Floors) Check(sc *Score) (below, above []string) {
	now := FloorsOf(sc)
	cmp := func(what string, have, want map[string]float64) {
		for _, k := range slices.Sorted(maps.Keys(have)) {
			switch h, w := have[k], want[k]; {
			case h < w:
				below = append(below, fmt.Sprintf("%s %s %.2f, floor %.2f", what, k, h, w))
			case h > w:
				above = append(above, fmt.Sprintf("%s %s %.2f, floor %.2f", what, k, h, w))
			}
		}
	}
	cmp("precision", now.Precision, fl.Precision)
	cmp("recall", now.Recall, fl.Recall)
	return below, above
}

// LoadFloors reads floors.json.
func LoadFloors(name string) (*Floors, error) {
	var fl Floors
	if err := readStrict(name, &fl); err != nil {
		return nil, err
	}
	return &fl, nil
}

// WriteFloors writes floors.json.
func WriteFloors(name string, fl *Floors) error {
	data, err := json.MarshalIndent(fl, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(data, '\n'), 0o644)
}
