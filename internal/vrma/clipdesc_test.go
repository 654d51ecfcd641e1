package vrma

import (
	"testing"

	"github.com/sway-anim/sway/systems/anim"
)

func TestClipDesc(t *testing.T) {
	_, _, _, ar, _, res := scenarios[1].run(t)
	index := map[string]int{}
	for i, n := range ar.nodes {
		index["A_"+n.name] = i
	}
	d, err := res.ClipDesc(index, len(ar.nodes), true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := anim.NewClip(d); err != nil {
		t.Fatal(err)
	}
	if len(d.Tracks) != len(res.Tracks) || d.Tracks[0].Bone != ar.index("hips") || d.Tracks[0].Translations == nil {
		t.Fatalf("tracks %+v", d.Tracks[0])
	}
	delete(index, "A_spine")
	if _, err := res.ClipDesc(index, len(ar.nodes), true); !isField(err, "Tracks[1].Bone") {
		t.Fatalf("a bone outside the skeleton: %v", err)
	}
}
