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

// A TVS structure whose tables would pass LoadConfig.MaxStructureBytes
// is refused at the structure, before they are allocated: 400,000
// individuals in 10 MB of TVS asked for a 40 GB table, and the Go
// runtime ended the process ("fatal error: out of memory").
func TestLoadTVSRefusesAUniverseOverTheLimit(t *testing.T) {
	voc := bigListVocabulary()
	path := filepath.Join(t.TempDir(), "big.tvs")
	if err := os.WriteFile(path, []byte("%n = {u}\n%p = {}\n"+bigListTVS(3000)), 0o666); err != nil {
		t.Fatal(err)
	}
	need := tvl.TableBytes(voc, 3000) // sm and x, nxt: 2·(2+3000)·47 words
	if want := uint64(2*8*47) * (2 + 3000); need != want {
		t.Fatalf("TableBytes = %d, want %d", need, want)
	}
	cfg := LoadConfig{MaxStructureBytes: need - 1, MaxStructureLimit: "--max-memory"}
	_, err := LoadTVS(path, voc, cfg)
	want := path + ":3:1: a structure of 3000 individuals: its truth tables would take 2.2 MiB, more than --max-memory (2.2 MiB)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	cfg.MaxStructureBytes = need
	locs, err := LoadTVS(path, voc, cfg)
	if err != nil || len(locs[0].Structures) != 2 || locs[0].Structures[1].Structure.Size() != 3000 {
		t.Fatalf("at the limit: %v", err)
	}
}
