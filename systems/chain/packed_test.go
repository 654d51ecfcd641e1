package chain

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// Prepare repacks the step parameters only when the step length, the
// weight, the object scale or the settings (Refresh) changed. Every frame
// of a run that changes each of them in turn, the cached records must equal
// records packed from scratch.
func TestPackedParametersFollowEveryChange(t *testing.T) {
	r := line(5, 0.2)
	s := DefaultSettings()
	s.Stiffness, s.Radius, s.Mode = 0.4, 0.02, Variable
	pool, c := r.build(t, Desc{Settings: s})
	p := c.Particles(pool)
	for f := 0; f < 40; f++ {
		switch f {
		case 8:
			c.Settings.Weight = 0.5 // read every frame, no Refresh
		case 16:
			r.obj.ObjectScale = mgl32.Vec3{2, 2, 2}
		case 24:
			r.obj.Dt = 1.0 / 144 // a shorter step in Variable mode
		case 32:
			c.Settings.Stiffness, c.Settings.Damping = 0.9, 0.3
			Refresh(p, c)
		}
		r.prepare(p, c)
		got := append([]packed(nil), c.packs()...)
		c.packOK = false
		pack(c)
		prepareAnim(&p, c, &r.pose, c.freeze(), false)
		for i := range got {
			if got[i] != c.packs()[i] {
				t.Fatalf("frame %d particle %d: cached %+v, packed afresh %+v", f, i, got[i], c.packs()[i])
			}
		}
		Step(p, c, r.pose, 0, nil)
	}
}

// The fields the step reads in Fixed mode end within Chain's first two
// cache lines (h, the last of them), those of Variable mode within the
// third (prevH), and Settings follows them all; the record is 320
// bytes, five whole lines, of which the step then fetches two.
func TestStepFieldsInTwoCacheLines(t *testing.T) {
	ty := reflect.TypeOf(Chain{})
	for _, tc := range []struct {
		field string
		lines uintptr
	}{{"h", 2}, {"steps", 2}, {"prevH", 3}} {
		f, ok := ty.FieldByName(tc.field)
		if !ok {
			t.Fatalf("Chain has no %s field", tc.field)
		}
		if end := f.Offset + f.Type.Size(); end > tc.lines*64 {
			t.Errorf("%s ends at byte %d of Chain, past its cache line %d", tc.field, end, tc.lines)
		}
		if s, _ := ty.FieldByName("Settings"); s.Offset < f.Offset {
			t.Errorf("Settings comes before %s", tc.field)
		}
	}
	if ty.Size() != 5*64 {
		t.Errorf("Chain is %d bytes, not five cache lines", ty.Size())
	}
}

// Prepare's inlined invRotate is mathx.InvRotate bit for bit.
func TestInvRotateMatchesMathx(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	f := func() float32 { return 4*rng.Float32() - 2 }
	for range 1000 {
		q := mgl32.Quat{W: f(), V: mgl32.Vec3{f(), f(), f()}}
		v := mgl32.Vec3{f(), f(), f()}
		x, y, z := invRotate(&q, v)
		if want := mathx.InvRotate(q, v); !sameBits(mgl32.Vec3{x, y, z}, want) {
			t.Fatalf("invRotate(%v, %v) = %v %v %v, mathx %v", q, v, x, y, z, want)
		}
	}
}
