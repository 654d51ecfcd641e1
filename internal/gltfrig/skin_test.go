package gltfrig

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
)

// The skin's joints come out as bone names in the skin's order with the
// file's inverse bind matrices; without inverseBindMatrices every joint's
// is the identity, as glTF specifies.
func TestSkinRead(t *testing.T) {
	glb := fixtureGLB(t, VersionVRM1, FixtureOptions{BindMatrices: true})
	r := decodeBytes(t, glb)
	if len(r.Skins) != 1 {
		t.Fatalf("%d skins", len(r.Skins))
	}
	s := r.Skins[0]
	if len(s.Joints) == 0 || len(s.InverseBind) != len(s.Joints) {
		t.Fatalf("skin %q: %d joints, %d matrices", s.Name, len(s.Joints), len(s.InverseBind))
	}
	bin, _ := glbAccessors(t, glb)
	ibm, err := bin.get("skins[0].inverseBindMatrices", accessorOf(t, glb, "skins[0].inverseBindMatrices"), accMAT4, false)
	if err != nil {
		t.Fatal(err)
	}
	for k := range s.Joints {
		var m mgl32.Mat4
		copy(m[:], ibm.Values[16*k:])
		if m != s.InverseBind[k] {
			t.Fatalf("joint %d (%s): %v, the file has %v", k, s.Joints[k], s.InverseBind[k], m)
		}
	}
	plain := decodeBytes(t, fixtureGLB(t, VersionVRM1, FixtureOptions{}))
	for k, m := range plain.Skins[0].InverseBind {
		if m != mgl32.Ident4() {
			t.Fatalf("joint %d without inverseBindMatrices: %v, want the identity", k, m)
		}
	}
}

// A skin whose inverseBindMatrices accessor has fewer matrices than the
// skin has joints, or is not a MAT4, is rejected at its JSON path.
func TestSkinRejected(t *testing.T) {
	glb := fixtureGLB(t, VersionVRM1, FixtureOptions{BindMatrices: true})
	i := accessorOf(t, glb, "skins[0].inverseBindMatrices")
	for _, c := range []struct {
		path  string
		value any
		field string
	}{
		{fmt.Sprintf("accessors[%d].count", i), 1, fmt.Sprintf("accessors[%d].count", i)},
		{fmt.Sprintf("accessors[%d].type", i), "VEC4", fmt.Sprintf("accessors[%d].type", i)},
		{"skins[0].inverseBindMatrices", 9999, "skins[0].inverseBindMatrices"},
	} {
		_, err := Decode(bytes.NewReader(mutateBin(t, glb, c.path, c.value, false)))
		var fe *check.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s = %v: %v, want a *FieldError at %s", c.path, c.value, err, c.field)
		}
	}
}

// Every skinned corpus file's inverse bind matrices undo its joints' rest
// transforms: rest world × inverse bind is the identity (a VRM 0.x file,
// which the loader turns half a turn about +Y, gives that half turn), as
// the exporters write them. The corpus once wrote them transposed.
func TestCorpusBindPose(t *testing.T) {
	skinned := 0
	for _, c := range Corpus() {
		if c.Bare {
			continue
		}
		glb, err := c.GLB()
		if err != nil {
			t.Fatal(err)
		}
		r := decodeBytes(t, glb)
		want := mgl32.Ident4()
		if r.Version == VersionVRM0 {
			want = mgl32.HomogRotate3DY(math.Pi)
		}
		world := worldMatrices(r, &Animation{}, 0)
		for _, s := range r.Skins {
			skinned++
			for k, name := range s.Joints {
				p := world[name].Mul4(s.InverseBind[k])
				for e := range p {
					if d := p[e] - want[e]; d > 1e-3 || d < -1e-3 {
						t.Fatalf("%s: skin %q joint %s: rest × inverse bind = %v, want %v", c.Name, s.Name, name, p, want)
					}
				}
			}
		}
	}
	if skinned == 0 {
		t.Fatal("no skinned corpus file: the test reads nothing")
	}
}
