package snapbin

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

func TestRoundTrip(t *testing.T) {
	tr := transform{Pos: mgl32.Vec3{1, -2, 3}, Rot: mgl32.Quat{W: 0.5, V: mgl32.Vec3{0.5, -0.5, 0.5}}, Scale: mgl32.Vec3{1, 2, 3}}
	nan := float32(math.NaN())
	var b []byte
	b = U8(b, 7)
	b = Bool(b, true)
	b = U32(b, 0xdeadbeef)
	b = I32(b, -5)
	b = U64(b, 1<<60)
	b = F32(b, nan)
	b = F64(b, 2.5)
	b = Transform(b, tr.Pos, tr.Rot, tr.Scale)
	if len(b) != 1+1+4+4+8+4+8+SizeTransform {
		t.Fatalf("%d bytes", len(b))
	}
	var r Reader
	r.Reset(b, 0)
	if r.U8("u8") != 7 || !r.Bool("bool") || r.U32("u32") != 0xdeadbeef || r.I32("i32") != -5 || r.U64("u64") != 1<<60 {
		t.Fatal("integers differ")
	}
	if f := r.F32("nan"); math.Float32bits(f) != math.Float32bits(nan) {
		t.Fatalf("NaN bits %x", math.Float32bits(f))
	}
	if r.F64("f64") != 2.5 || readTransform(&r, "t") != tr || r.Remaining() != 0 || r.Err() != nil {
		t.Fatalf("floats differ or %v", r.Err())
	}
}

func TestReaderErrorsAreStickyAndTyped(t *testing.T) {
	b := U32(Bool(nil, true), 3)
	b = append(b, 2) // a bad flag
	var r Reader
	r.Reset(b, 100)
	r.Char = 4
	r.Bool("ok")
	r.Count("count", 3)
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	r.Bool("flag")
	r.U32("after") // too few bytes, but the first problem is kept
	var e *Error
	err := r.Err()
	if !errors.As(err, &e) || !errors.Is(err, ErrSnapshot) || errors.Is(err, ErrMismatch) {
		t.Fatalf("%v", err)
	}
	if e.Field != "flag" || e.Offset != 105 || e.Char != 4 {
		t.Fatalf("%+v", e)
	}

	r.Reset(U32(nil, 2), 0)
	r.Count("count", 3)
	if err := r.Err(); !errors.Is(err, ErrMismatch) || !errors.Is(err, ErrSnapshot) {
		t.Fatalf("count mismatch: %v", err)
	}
	r.Reset(F32(nil, float32(math.Inf(1))), 0)
	if r.Finite("f"); r.Err() == nil {
		t.Fatal("Inf accepted as finite")
	}
	r.Reset([]byte{1, 2}, 0)
	if r.U32("u32") != 0 || r.Err() == nil {
		t.Fatal("a truncated value was read")
	}
}

func TestRootAcceptsFaultsButNotBadTransforms(t *testing.T) {
	good := transform{Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
	nan := good
	nan.Pos[0] = float32(math.NaN())
	long, flat := good, good
	long.Rot.W = 3
	flat.Scale[1] = 0
	// At and beyond the limits on roots.
	far, farther, huge, tiny, big := good, good, good, good, good
	far.Pos = mgl32.Vec3{-1e6, 1e6, 1e6}
	far.Scale = mgl32.Vec3{1e4, -1e-4, 1}
	farther.Pos[1] = 1.0001e6
	huge.Scale[2] = 3e38
	tiny.Scale[0] = -0.99e-4
	big.Pos[0] = -3e38
	for _, tc := range []struct {
		tr transform
		ok bool
	}{{good, true}, {nan, true}, {long, false}, {flat, false},
		{far, true}, {farther, false}, {huge, false}, {tiny, false}, {big, false}} {
		var r Reader
		r.Reset(Transform(nil, tc.tr.Pos, tc.tr.Rot, tc.tr.Scale), 0)
		r.Root("root", 1e-3)
		if (r.Err() == nil) != tc.ok {
			t.Errorf("%v: %v", tc.tr, r.Err())
		}
	}
}

func TestBulkReads(t *testing.T) {
	vs := []mgl32.Vec3{{1, 2, 3}, {4, 5, 6}}
	qs := []mgl32.Quat{{W: 1}, {W: 0.5, V: mgl32.Vec3{0.5, 0.5, 0.5}}}
	b := Quats(Vec3s(nil, vs), qs)
	b = append(b, 1, 0, 1)
	var r Reader
	r.Reset(b, 0)
	gv, gq, gb := make([]mgl32.Vec3, 2), make([]mgl32.Quat, 2), make([]bool, 3)
	r.Vec3s("v", gv, true, true)
	r.Quats("q", gq, true, true)
	r.Bools("b", gb, true)
	if r.Err() != nil || gv[1] != vs[1] || gq[1] != qs[1] || !gb[0] || gb[1] || !gb[2] {
		t.Fatalf("%v %v %v %v", r.Err(), gv, gq, gb)
	}
	// A non-finite component is named at its vector's offset; without the
	// finite check it is read as it is.
	vs[1][2] = float32(math.Inf(-1))
	b = Vec3s(nil, vs)
	r.Reset(b, 10)
	r.Vec3s("v", gv, true, true)
	var e *Error
	if !errors.As(r.Err(), &e) || e.Offset != 10+SizeVec3 {
		t.Fatalf("%v", r.Err())
	}
	r.Reset(b, 0)
	r.Vec3s("v", gv, false, true)
	if r.Err() != nil || !math.IsInf(float64(gv[1][2]), -1) {
		t.Fatalf("%v %v", r.Err(), gv)
	}
	r.Reset([]byte{0, 2}, 0)
	if r.Bools("b", gb[:2], true); r.Err() == nil {
		t.Fatal("a flag of 2 accepted")
	}
}

// Vec3sWithin names the first vector with a component beyond the limit
// (or not finite) and accepts those at it.
func TestVec3sWithin(t *testing.T) {
	vs := []mgl32.Vec3{{1, -2, 3}, {4, 5, 6}, {0, 0, 0}}
	got := make([]mgl32.Vec3, len(vs))
	var r Reader
	r.Reset(Vec3s(nil, vs), 0)
	if r.Vec3sWithin("v", got, 6, true); r.Err() != nil || got[1] != vs[1] {
		t.Fatalf("at the limit: %v %v", r.Err(), got)
	}
	for _, bad := range []float32{6.001, -7, float32(math.NaN()), float32(math.Inf(1))} {
		vs[1][1] = bad
		r.Reset(Vec3s(nil, vs), 10)
		r.Vec3sWithin("v", got, 6, false)
		var e *Error
		if !errors.As(r.Err(), &e) || e.Offset != 10+SizeVec3 || e.Field != "v" {
			t.Fatalf("%g: %v", bad, r.Err())
		}
	}
}

// A second read of accepted bytes (Checked) skips the bulk value checks
// but not the length check.
func TestCheckedSkipsValueChecksOnly(t *testing.T) {
	b := Vec3s(nil, []mgl32.Vec3{{float32(math.NaN()), 0, 0}})
	var r Reader
	r.Reset(b, 0)
	r.Checked = true
	dst := make([]mgl32.Vec3, 1)
	if r.Vec3s("v", dst, true, true); r.Err() != nil || !math.IsNaN(float64(dst[0][0])) {
		t.Fatalf("%v %v", r.Err(), dst)
	}
	r.Reset(b, 0)
	r.Checked = true
	if r.Vec3s("v", make([]mgl32.Vec3, 2), true, true); r.Err() == nil {
		t.Fatal("a short run read")
	}
}

// transform is a position, rotation and scale, as the snapshot of a
// components.Transform holds them.
type transform struct {
	Pos   mgl32.Vec3
	Rot   mgl32.Quat
	Scale mgl32.Vec3
}

func readTransform(r *Reader, field string) transform {
	p, q, s := r.Transform(field)
	return transform{p, q, s}
}
