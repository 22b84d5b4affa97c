package main

import (
	"bytes"

	"github.com/tvla-go/tvla/engine"
	"github.com/tvla-go/tvla/tvp"
)

// writeTVSResult writes the final structures per location as TVS, with
// each structure's messages, atomically. When the program lists locations
// to print (its fourth section), only those are written, as TVLA does.
func writeTVSResult(path string, res *engine.Result, print []string) error {
	keep := map[string]bool{}
	for _, l := range print {
		keep[l] = true
	}
	var locs []tvp.TVSLocation
	for _, l := range res.Locations {
		if len(keep) > 0 && !keep[l.Label] {
			continue
		}
		loc := tvp.TVSLocation{Label: l.Label}
		for _, s := range l.Structures {
			loc.Structures = append(loc.Structures, tvp.TVSStructure{Structure: s})
		}
		for _, m := range l.Messages {
			loc.Structures = append(loc.Structures, tvp.TVSStructure{Structure: m.Structure, Messages: []string{oneLine(m.Text)}})
		}
		locs = append(locs, loc)
	}
	var buf bytes.Buffer
	if err := tvp.WriteTVS(&buf, locs); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}
