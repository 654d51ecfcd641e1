package breath

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// simdCase is a random plan of the simple shape on the test rig or on
// planParents, with a random pose and state.
func simdCase(r *rand.Rand) (Plan, []int32, []mgl32.Quat, State) {
	var parents []int32
	var s Settings
	switch r.Intn(5) {
	case 0:
		parents, s = rigParents, rigSettings()
	case 4:
		// Two segments; both shoulders hang from the second.
		parents, s = rigParents, DefaultSettings(rigSpine, rigChest, -1, -1, rigLShoulder, rigRShoulder)
	case 1:
		// The shoulders hang from the top segment.
		parents, s = rigParents, DefaultSettings(rigChest, -1, -1, -1, rigLShoulder, rigRShoulder)
	case 2:
		// One shoulder, and fewer segments.
		parents, s = rigParents, DefaultSettings(rigSpine, rigChest, rigNeck, -1, -1, rigRShoulder)
	default:
		// spine2 (2) is no segment; the chest (3) hangs right below it.
		parents, s = planParents, DefaultSettings(2, 3, 4, 5, 6, -1)
	}
	s.Mode = Mode(r.Intn(2))
	for i := range s.Segments {
		s.Segments[i].Axis = Axis(r.Intn(3))
		s.Segments[i].Sign = float32(1 - 2*r.Intn(2))
	}
	p, err := NewPlan(&s, parents)
	if err != nil {
		panic(err)
	}
	local := make([]mgl32.Quat, len(parents))
	for i := range local {
		local[i] = randomRot(r, 90)
	}
	var st State
	for i := range st.Angle {
		// Mostly breath angles, now and then one beyond the kernel's range
		// (a half angle above 0.1 rad is a bend above 11.46°).
		st.Angle[i] = float32(r.NormFloat64() * 4)
		st.Prev[i] = st.Angle[i] - float32(r.NormFloat64()*0.5)
	}
	return p, parents, local, st
}

// TestApplySimpleMatchesGo runs the SIMD kernel and applyGo on the same
// random plans, poses and angles: where the kernel accepts, every bone
// must hold the same bits; where it declines, it must not have written.
func TestApplySimpleMatchesGo(t *testing.T) {
	if !simdApply {
		t.Skip("no SIMD kernel in this build (the Go definition serves)")
	}
	r := rand.New(rand.NewSource(11))
	accepted, declined := 0, 0
	for trial := 0; trial < 20000; trial++ {
		p, parents, local, st := simdCase(r)
		if !p.simple {
			t.Fatalf("trial %d: plan %+v is not simple", trial, p)
		}
		a := append([]mgl32.Quat(nil), local...)
		g := append([]mgl32.Quat(nil), local...)
		angles := st.Angle
		if p.mode == Additive {
			for i := range angles {
				angles[i] -= st.Prev[i]
			}
		}
		if !applySimple(&p, &angles, &a[0]) {
			declined++
			for i := range a {
				if a[i] != local[i] {
					t.Fatalf("trial %d: declined, but bone %d changed", trial, i)
				}
			}
			continue
		}
		accepted++
		p.applyGo(g, parents, &st)
		for i := range a {
			if !sameBits(a[i], g[i]) {
				t.Fatalf("trial %d (mode %d) bone %d: kernel %v, applyGo %v", trial, p.mode, i, a[i], g[i])
			}
		}
	}
	t.Logf("%d accepted, %d declined", accepted, declined)
	if accepted < 1000 || declined < 100 {
		t.Fatalf("%d accepted, %d declined: the test covers too little", accepted, declined)
	}
}

func sameBits(a, b mgl32.Quat) bool {
	return math.Float32bits(a.W) == math.Float32bits(b.W) &&
		math.Float32bits(a.V[0]) == math.Float32bits(b.V[0]) &&
		math.Float32bits(a.V[1]) == math.Float32bits(b.V[1]) &&
		math.Float32bits(a.V[2]) == math.Float32bits(b.V[2])
}

// TestSimpleShape: the humanoid mapping is the kernel's shape; slots out of
// order, and a chain with bones between the shoulder's parent and the top
// segment, are not.
func TestSimpleShape(t *testing.T) {
	s := rigSettings()
	if p, _ := NewPlan(&s, rigParents); !p.simple {
		t.Error("the humanoid mapping is not simple")
	}
	// No spine: the chest, in slot 1, is the first segment.
	s = DefaultSettings(-1, rigChest, rigNeck, rigHead, rigLShoulder, rigRShoulder)
	if p, _ := NewPlan(&s, rigParents); p.simple {
		t.Error("segments out of slot order count as simple")
	}
	// spine2 (2) lies between the chest (3) and the top segment (1).
	s = DefaultSettings(1, 3, 4, 5, 6, 8)
	if p, _ := NewPlan(&s, planParents); p.simple {
		t.Error("a shoulder two bones below the top segment counts as simple")
	}
}
