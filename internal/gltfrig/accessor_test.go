package gltfrig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// glbAccessors returns the accessor reader of a GLB and its document, as
// the loader builds them.
func glbAccessors(t testing.TB, glb []byte) (*accessors, *document) {
	t.Helper()
	js, _ := glbChunks(t, glb)
	var doc document
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	rest := glb[20+len(js):]
	return newAccessors(&doc, &binSource{glb: bytes.NewReader(rest), rest: uint64(len(rest))}), &doc
}

// A MAT4 accessor (the fixture's inverse bind matrices) reads column-major:
// each joint's matrix times its model-space rest transform is the
// identity. Asking for another type names the accessor's type.
func TestAccessorMat4(t *testing.T) {
	glb := fixtureGLB(t, VersionVRM1, FixtureOptions{BindMatrices: true, Animations: []FixtureAnimation{mixed()}})
	r := decodeBytes(t, glb)
	bin, doc := glbAccessors(t, glb)
	var skin struct {
		Joints              []int `json:"joints"`
		InverseBindMatrices *int  `json:"inverseBindMatrices"`
	}
	if err := json.Unmarshal(doc.Skins[0], &skin); err != nil || skin.InverseBindMatrices == nil {
		t.Fatalf("skin %+v: %v", skin, err)
	}
	ibm, err := bin.get("skins[0].inverseBindMatrices", *skin.InverseBindMatrices, accMAT4, false)
	if err != nil {
		t.Fatal(err)
	}
	if ibm.Count != len(skin.Joints) || len(ibm.Values) != 16*ibm.Count {
		t.Fatalf("%d matrices, %d values for %d joints", ibm.Count, len(ibm.Values), len(skin.Joints))
	}
	world := worldMatrices(r, &Animation{}, 0)
	var names []string
	for _, b := range r.Skeleton.Bones {
		names = append(names, b.Name)
	}
	for k, j := range skin.Joints {
		var m mgl32.Mat4
		copy(m[:], ibm.Values[16*k:])
		p, id := m.Mul4(world[names[j]]), mgl32.Ident4()
		for e := range p {
			if d := p[e] - id[e]; d > 2e-6 || d < -2e-6 {
				t.Errorf("joint %d (%s): inverse bind × rest = %v", k, names[j], p)
				break
			}
		}
	}
	if _, err := bin.get("skins[0].inverseBindMatrices", *skin.InverseBindMatrices, accVEC4, false); err == nil || fieldOf(t, err) != fmt.Sprintf("accessors[%d].type", *skin.InverseBindMatrices) {
		t.Errorf("MAT4 read as VEC4: %v", err)
	}
	if _, err := bin.get("skins[0].inverseBindMatrices", 1000, accMAT4, false); err == nil || fieldOf(t, err) != "skins[0].inverseBindMatrices" {
		t.Errorf("no such accessor: %v", err)
	}
}
