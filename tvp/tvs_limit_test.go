package tvp

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tvla-go/tvla/logic"
	"github.com/tvla-go/tvla/tvl"
)

// longNameTVS is one structure of n individuals with names of the given
// length, all at x: its TVS text takes about 2·n·length bytes.
func longNameTVS(n, length int) TVSStructure {
	voc := tvl.NewVocabulary()
	x := voc.MustAdd("x", 1)
	s := tvl.NewSized(voc, n)
	names := make([]string, n)
	for u := range names {
		names[u] = strings.Repeat(string(rune('a'+u%26)), length-8) + tvl.IndividualName(u) + strings.Repeat("_", 8-len(tvl.IndividualName(u)))
		s.Set(x, logic.True, u)
	}
	return TVSStructure{Structure: s, Names: names}
}

// What WriteTVS writes, LoadTVS reads back: a TVS over the 64 MiB a
// program may hold used to be refused as too large.
func TestWriteTVSOverProgramLimitReadsBack(t *testing.T) {
	st := longNameTVS(340, 100_000)
	var b bytes.Buffer
	if err := WriteTVS(&b, []TVSLocation{{Structures: []TVSStructure{st}}}); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= MaxProgramBytes {
		t.Fatalf("the TVS takes %d bytes, want more than %d", b.Len(), MaxProgramBytes)
	}
	path := filepath.Join(t.TempDir(), "big.tvs")
	if err := os.WriteFile(path, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	size := b.Len()
	b = bytes.Buffer{}
	voc := st.Structure.Vocabulary()
	locs, err := LoadTVS(path, voc, LoadConfig{})
	if err != nil {
		t.Fatalf("reading back %d bytes: %.200v", size, err)
	}
	got := locs[0].Structures[0]
	if !tvl.Equal(got.Structure, st.Structure) || len(got.Names) != len(st.Names) || got.Names[339] != st.Names[339] {
		t.Errorf("read back a different structure (%d individuals)", got.Structure.Size())
	}
}

// WriteTVS refuses, writing nothing, structures whose text would pass
// what LoadTVS reads, and it stops building the text as soon as it does.
func TestWriteTVSRefusesWhatCannotBeRead(t *testing.T) {
	defer func(old int64) { tvsWriteLimit = old }(tvsWriteLimit)
	tvsWriteLimit = 1000
	var b bytes.Buffer
	err := WriteTVS(&b, []TVSLocation{{Structures: []TVSStructure{longNameTVS(50, 16)}}})
	if err == nil || err.Error() != "tvs: the structures take over 1000 bytes as TVS text, the most a TVS file may hold: tvla could not read them back" || b.Len() != 0 {
		t.Errorf("got %v, %d bytes written", err, b.Len())
	}
	if err := WriteTVS(&b, []TVSLocation{{Structures: []TVSStructure{longNameTVS(5, 16)}}}); err != nil || b.Len() == 0 || b.Len() > 1000 {
		t.Errorf("small: %v, %d bytes", err, b.Len())
	}
}
