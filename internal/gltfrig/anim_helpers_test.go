package gltfrig

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// glbChunks splits a GLB into its JSON text and BIN chunk (nil if none).
func glbChunks(t testing.TB, glb []byte) ([]byte, []byte) {
	t.Helper()
	le := binary.LittleEndian
	n := le.Uint32(glb[12:])
	js := glb[20 : 20+n]
	rest := glb[20+n:]
	if len(rest) < 8 {
		return js, nil
	}
	m := le.Uint32(rest)
	return js, rest[8 : 8+m]
}

// packGLB writes a GLB of JSON text and a BIN chunk (none when bin is nil).
func packGLB(js, bin []byte) []byte {
	out := wrapGLB(js)
	if bin == nil {
		return out
	}
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	le := binary.LittleEndian
	var h [8]byte
	le.PutUint32(h[:], uint32(len(bin)))
	le.PutUint32(h[4:], chunkBIN)
	out = append(out, h[:]...)
	out = append(out, bin...)
	le.PutUint32(out[8:], uint32(len(out)))
	return out
}

// mutateBin is mutate keeping the BIN chunk.
func mutateBin(t testing.TB, glb []byte, path string, v any, del bool) []byte {
	t.Helper()
	js, bin := glbChunks(t, glb)
	var root any
	if err := json.Unmarshal(js, &root); err != nil {
		t.Fatal(err)
	}
	setPath(t, root, path, v, del)
	out, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return packGLB(out, bin)
}

// toGLTF turns a GLB into glTF JSON whose buffers[0] has the given uri;
// for "" a data: URI holding the BIN chunk. It returns the JSON and the
// BIN chunk's bytes.
func toGLTF(t testing.TB, glb []byte, uri string) ([]byte, []byte) {
	t.Helper()
	js, bin := glbChunks(t, glb)
	var root any
	if err := json.Unmarshal(js, &root); err != nil {
		t.Fatal(err)
	}
	if uri == "" {
		uri = "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin)
	}
	setPath(t, root, "buffers[0].uri", uri, false)
	out, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return out, bin
}

// fixtureGLB writes the fixture or fails the test.
func fixtureGLB(t testing.TB, v Version, o FixtureOptions) []byte {
	t.Helper()
	glb, err := Fixture(v, o)
	if err != nil {
		t.Fatal(err)
	}
	return glb
}

// quatXYZW returns a quaternion as glTF writes it.
func quatXYZW(q mgl32.Quat) []float32 { return []float32{q.V[0], q.V[1], q.V[2], q.W} }

// axisAngle is the glTF quaternion of a turn of deg degrees about axis.
func axisAngle(deg float64, axis mgl32.Vec3) mgl32.Quat {
	return mgl32.QuatRotate(float32(deg*math.Pi/180), axis.Normalize())
}

// track returns an animation's track of a bone, or fails.
func track(t testing.TB, a *Animation, bone string) *Track {
	t.Helper()
	for i := range a.Tracks {
		if a.Tracks[i].Bone == bone {
			return &a.Tracks[i]
		}
	}
	t.Fatalf("%s: no track for %s", a.Name, bone)
	return nil
}

// keyNear reports whether a key is b within tol per component.
func keyNear(a mgl32.Vec3, b [3]float64, tol float64) bool {
	for i := range 3 {
		if math.Abs(float64(a[i])-b[i]) > tol {
			return false
		}
	}
	return true
}

// keyRot reports whether a key and a quaternion (x, y, z, w) are the same
// rotation (q or -q) within tol per component.
func keyRot(a mgl32.Quat, b [4]float64, tol float64) bool {
	d := func(s float64) bool {
		return math.Abs(float64(a.V[0])-s*b[0]) <= tol && math.Abs(float64(a.V[1])-s*b[1]) <= tol &&
			math.Abs(float64(a.V[2])-s*b[2]) <= tol && math.Abs(float64(a.W)-s*b[3]) <= tol
	}
	return d(1) || d(-1)
}
