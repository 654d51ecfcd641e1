package chain

import (
	"reflect"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
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
		got := append([]packed(nil), c.pk...)
		c.packOK = false
		pack(c)
		prepareAnim(&p, c, &r.pose, c.freeze(), false)
		for i := range got {
			if got[i] != c.pk[i] {
				t.Fatalf("frame %d particle %d: cached %+v, packed afresh %+v", f, i, got[i], c.pk[i])
			}
		}
		Step(p, c, 0, nil)
	}
}

// TestStepFieldsInThreeCacheLines: the Chain fields the step reads lead
// the record and end within its first 192 bytes (see Chain).
func TestStepFieldsInThreeCacheLines(t *testing.T) {
	ty := reflect.TypeOf(Chain{})
	f, ok := ty.FieldByName("steps")
	if !ok {
		t.Fatal("Chain has no steps field")
	}
	if end := f.Offset + f.Type.Size(); end > 3*64 {
		t.Fatalf("the step's fields end at byte %d of Chain, past its third cache line", end)
	}
	if s, _ := ty.FieldByName("Settings"); s.Offset < f.Offset {
		t.Fatal("Settings comes before the step's fields")
	}
}
