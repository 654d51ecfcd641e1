package gltfrig

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/sway-anim/sway/internal/check"
)

const sb = "extensions.VRMC_springBone"

// fieldOf returns the JSON path a rejection names.
func fieldOf(t *testing.T, err error) string {
	t.Helper()
	var fe *check.FieldError
	if !errors.As(err, &fe) || !errors.Is(err, check.ErrInvalid) || fe.Type != errType {
		t.Fatalf("error %v is not a glTF *check.FieldError", err)
	}
	return fe.Field
}

// Bad values are rejected with the JSON path of the value.
func TestRejectNamesPath(t *testing.T) {
	good1 := encodeGLB(t, build1())
	good0 := encodeGLB(t, build0())
	const v0 = "extensions.VRM.secondaryAnimation"
	cases := []struct {
		base  []byte
		path  string
		value any
		del   bool
		field string // the Field the error must name; "" = the same as path
	}{
		{good1, sb + ".springs[1].joints[0].node", 99, false, ""},
		{good1, sb + ".springs[1].joints[2].node", 7, false, ""}, // not the child of joint 1
		{good1, sb + ".springs[0].joints[1].node", nil, true, ""},
		{good1, sb + ".springs[0].joints[3].stiffness", -1, false, ""},
		{good1, sb + ".springs[0].joints[3].dragForce", 1.5, false, ""},
		{good1, sb + ".springs[0].joints[2].hitRadius", 1e300, false, ""}, // finite in JSON, not in float32
		{good1, sb + ".springs[1].joints[0].gravityDir", []float64{0, -1}, false, ""},
		{good1, sb + ".springs[1].colliderGroups[2]", 5, false, ""},
		{good1, sb + ".springs[1].center", -3, false, ""},
		{good1, sb + ".springs[0].joints", []any{}, false, ""},
		{good1, sb + ".colliderGroups[1].colliders[0]", 17, false, ""},
		{good1, sb + ".colliders[2].node", 1000, false, ""},
		{good1, sb + ".colliders[1].shape.sphere.radius", -0.5, false, ""},
		{good1, sb + ".colliders[0].shape", map[string]any{}, false, ""},
		{good1, sb + ".colliders[4].extensions.VRMC_springBone_extended_collider.shape.plane.normal", []float64{0, 0, 0}, false, ""},
		{good1, sb + ".colliders[3].extensions.VRMC_springBone_extended_collider.shape.sphere.offset", []float64{0, 1e39, 0}, false, ""},
		{good1, "extensions.VRMC_vrm.humanoid.humanBones.head.node", 500, false, ""},
		{good1, "nodes[3].children[0]", 3, false, ""},                    // own child
		{good1, "nodes[5].children[0]", 1, false, ""},                    // hips has a parent already
		{good1, "nodes[2].rotation", []float64{0, 0, 0, 0.5}, false, ""}, // not unit
		{good1, "nodes[2].translation", []float64{0, 1e39, 0}, false, ""},
		{good1, "nodes[2].scale", []float64{1, 0, 1}, false, ""},
		{good1, "skins[0].joints[3]", 77, false, ""},
		{good1, "nodes[4].matrix", []float64{1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, false, ""}, // shear
		{good1, "asset.version", "1.0", false, ""},
		{good1, "asset", nil, true, ""},
		{good1, sb + ".springs[0].joints[0].node", "head", false, sb + ".springs.joints.node"}, // wrong type
		{good0, v0 + ".boneGroups[1].bones[0]", 40, false, ""},
		{good0, v0 + ".boneGroups[0].stiffiness", -2, false, ""},
		{good0, v0 + ".boneGroups[1].gravityDir.z", 1e40, false, ""},
		{good0, v0 + ".boneGroups[1].colliderGroups[0]", 9, false, ""},
		{good0, v0 + ".colliderGroups[0].colliders[1].radius", -1, false, ""},
		{good0, v0 + ".colliderGroups[1].node", -5, false, ""},
		{good0, v0 + ".boneGroups[0].center", 99, false, ""},
		{good0, "extensions.VRM.humanoid.humanBones[2].node", 1234, false, ""},
	}
	for _, c := range cases {
		b := mutate(t, c.base, c.path, c.value, c.del)
		_, err := Decode(bytes.NewReader(b))
		if err == nil {
			t.Errorf("%s = %v: accepted", c.path, c.value)
			continue
		}
		want := c.field
		if want == "" {
			want = c.path
		}
		if got := fieldOf(t, err); got != want {
			t.Errorf("%s = %v: error names %q (%v)", c.path, c.value, got, err)
		}
	}
}

// A cycle in the node hierarchy is rejected, naming the children list.
func TestRejectCycle(t *testing.T) {
	doc := build1()
	doc.Nodes[5].Children = append(doc.Nodes[5].Children, 0) // head -> Armature -> … -> head
	doc.Scenes[0].Nodes = nil
	_, err := Decode(bytes.NewReader(encodeGLB(t, doc)))
	if err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("cycle accepted: %v", err)
	}
	if f := fieldOf(t, err); !strings.HasPrefix(f, "nodes[") || !strings.HasSuffix(f, "].children") {
		t.Errorf("cycle reported at %q", f)
	}
}

// The GLB container is checked before anything is decoded.
func TestRejectContainer(t *testing.T) {
	good := encodeGLB(t, build1())
	set := func(off int, v byte) []byte {
		b := bytes.Clone(good)
		b[off] = v
		return b
	}
	short := bytes.Clone(good)
	binary.LittleEndian.PutUint32(short[8:], 24) // total length shorter than the JSON chunk
	cases := []struct {
		b     []byte
		field string
	}{
		{set(4, 1), "glb.version"},
		{set(16, 'X'), "glb.chunks[0].chunkType"},
		{set(15, 0x7f), "glb.chunks[0].chunkLength"}, // a huge length: rejected, nothing allocated
		{short, "glb.length"},
		{good[:30], "glb.chunks[0].chunkLength"}, // truncated JSON
		{good[:15], "glb"},
		{[]byte("{not json"), "json"},
		{[]byte(`{"asset":{"version":"2.0"}}`), "nodes"},
	}
	for i, c := range cases {
		_, err := Decode(bytes.NewReader(c.b))
		if err == nil {
			t.Errorf("case %d accepted", i)
			continue
		}
		if f := fieldOf(t, err); f != c.field {
			t.Errorf("case %d: %q (%v), want %q", i, f, err, c.field)
		}
	}
}

// The JSON scan bounds depth, values and objects before decoding.
func TestRejectJSONLimits(t *testing.T) {
	deep := strings.Repeat("[", MaxJSONDepth+1) + strings.Repeat("]", MaxJSONDepth+1)
	many := `{"asset":{"version":"2.0"},"extras":[` + strings.Repeat("0,", MaxJSONValues) + `0]}`
	objs := `{"asset":{"version":"2.0"},"extras":[` + strings.Repeat("{},", MaxJSONObjects) + `{}]}`
	for name, js := range map[string]string{"depth": deep, "values": many, "objects": objs} {
		_, err := Decode(strings.NewReader(js))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if f := fieldOf(t, err); f != "json" || !strings.Contains(err.Error(), "Max") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Decode(strings.NewReader(`{"a":"` + strings.Repeat("x", MaxJSONBytes) + `"}`)); err == nil || fieldOf(t, err) != "json" {
		t.Errorf("more than MaxJSONBytes: %v", err)
	}
	// Brackets and commas inside strings are not structure.
	if err := scanJSON([]byte(`{"a":"` + strings.Repeat(`[{,\"`, MaxJSONDepth) + `"}`)); err != nil {
		t.Errorf("string content counted: %v", err)
	}
}

// A rejection after warnings carries them (a *LoadError that wraps the
// *check.FieldError): a collider whose only shape is an extended one that
// is not read is rejected, and the warning and the error both say why;
// a warning noted long before an unrelated rejection comes with it too.
// A rejection without warnings is the bare *check.FieldError.
func TestRejectionCarriesWarnings(t *testing.T) {
	good := encodeGLB(t, build1())
	const ext = sb + ".colliders[3].extensions.VRMC_springBone_extended_collider"
	noBase := mutate(t, good, sb+".colliders[3].shape", nil, true)
	for _, c := range []struct {
		name   string
		glb    []byte
		field  string
		reason string
	}{
		{"unknown version", mutate(t, noBase, ext+".specVersion", "2.0", false), sb + ".colliders[3].shape", `unknown specVersion "2.0"`},
		{"no version", mutate(t, noBase, ext+".specVersion", nil, true), sb + ".colliders[3].shape", "no specVersion"},
		{"no known shape", mutate(t, noBase, ext+".shape", map[string]any{"palne": map[string]any{}}, false), sb + ".colliders[3].shape", "no known shape"},
		{"0.x beside 1.0, then a bad joint", func() []byte {
			doc := build1()
			doc.Extensions[extVRM0] = build0().Extensions[extVRM0]
			return mutate(t, encodeGLB(t, doc), sb+".springs[1].joints[2].node", 99, false)
		}(), sb + ".springs[1].joints[2].node", "extensions.VRM (0.x) ignored"},
	} {
		_, err := Decode(bytes.NewReader(c.glb))
		if got := fieldOf(t, err); got != c.field {
			t.Errorf("%s: rejected at %s, want %s", c.name, got, c.field)
		}
		var le *LoadError
		ws := Warnings(err)
		if !errors.As(err, &le) || len(ws) != 1 || !strings.Contains(ws[0], c.reason) || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: %v carries warnings %q, want one saying %q", c.name, err, ws, c.reason)
		}
	}
	_, err := Decode(bytes.NewReader(mutate(t, good, sb+".springs[0].joints[1].stiffness", -1, false)))
	if _, ok := err.(*check.FieldError); !ok || Warnings(err) != nil {
		t.Errorf("a rejection without warnings: %T %v", err, err)
	}
}
