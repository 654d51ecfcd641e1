package chain

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
)

// goldenFixed is the hash of TestSameBitsInEveryBuild's run. Every build
// (default, GOAMD64=v3 and above, the purego tag, any architecture) and
// every path (the AVX2 lanes, their Go definitions, each chain alone) must
// give it. If a change to the step or apply is meant to change results,
// take the new value from the default build, then check that the other
// builds agree (.ci/run runs them).
const goldenFixed uint64 = 0xdb37ede016d1f4da

// The chain step and apply give the same bits in every build: Go may fuse
// a multiply and an add into one instruction (GOAMD64=v3 and above, arm64,
// ...), which rounds once where the default amd64 build rounds twice, and
// the kernels prevent it with explicit float32 conversions (.ci/fused
// lists any fused multiply-add left). Fixed mode with its colliders,
// curves, skip updates and apply, on motion drawn from an integer
// generator: Variable mode's powers go through math.Exp and math.Log, and
// trigonometry through the math package, whose last bits differ between
// machines and builds.
func TestSameBitsInEveryBuild(t *testing.T) {
	var got []uint64
	var names []string
	for _, avx2 := range laneKinds() {
		setAVX2(t, avx2)
		for _, side := range []bool{true, false} {
			got = append(got, sameBitsRun(t, side))
			names = append(names, map[bool]string{true: "lanes AVX2 ", false: "lanes Go "}[avx2]+map[bool]string{true: "side by side", false: "alone"}[side])
		}
	}
	for k := range got {
		if got[k] != got[0] {
			t.Fatalf("%s: %#x, %s: %#x", names[k], got[k], names[0], got[0])
		}
	}
	if got[0] != goldenFixed {
		t.Fatalf("hash %#x, want %#x: the chain kernels give other bits than the default build's (a fused multiply-add? see .ci/fused), or the step changed on purpose and goldenFixed needs the new value", got[0], goldenFixed)
	}
}

// sameBitsRun steps and applies eight characters' chains, side by side or
// each alone, and returns a hash of every particle and pose after every
// frame.
func sameBitsRun(t *testing.T, side bool) uint64 {
	h := fnv.New64a()
	var buf [4]byte
	put := func(vs ...float32) {
		for _, v := range vs {
			u := math.Float32bits(v)
			buf[0], buf[1], buf[2], buf[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
			h.Write(buf[:])
		}
	}
	curves := func(s int, set *Settings) {
		set.TeleportAngleDegrees = 0 // its threshold is a cosine
		if s%2 == 1 {
			set.Curves = &Curves{Damping: Curve{{0, 0.5}, {1, 1.5}}, Radius: Curve{{0, 0.5}, {1, 2}}, Stiffness: Curve{{0, 1}, {1, 0}}}
		}
	}
	// The step: the forked tree of the lane tests, three colliders.
	l := newQuadLanesWith(t, Fixed, true, curves)
	// The apply: lines, which the lanes take side by side.
	al := &applyLanes{pool: &Particles{}}
	for s := range LaneCount {
		al.rigs[s] = applyLine()
		set := DefaultSettings()
		curves(s, &set)
		set.Damping = 0.05 * float32(s+1)
		al.cs[s] = &Chain{}
		if err := Build(al.pool, al.cs[s], &al.rigs[s].skel, &Desc{Root: 1, Settings: set, EndLength: 0.5}); err != nil {
			t.Fatal(err)
		}
		al.cs[s].RestFirst = al.cs[0].First
	}
	rng := rand.New(rand.NewPCG(31, 41))
	// step returns a value in [-k, k] in steps of k/1024: exact in float32.
	step := func(k float32) float32 { return float32(rng.IntN(2049)-1024) * (k / 1024) }
	dts := []float32{1.0 / 60, 1.0 / 60, 1.0 / 30, 1.0 / 90, 1.0 / 60, 1.0 / 120, 0.05}
	var q Lanes
	cs := l.chains()
	var pos [LaneCount]mgl32.Vec3
	var rot [LaneCount]mgl32.Quat
	for s := range rot {
		rot[s] = mgl32.QuatIdent()
	}
	for f := range 90 {
		dt := dts[f%len(dts)]
		var steps [LaneCount]int
		for s := range LaneCount {
			// A random walk and turn; the rotation normalised by mathx.
			pos[s] = pos[s].Add(mgl32.Vec3{step(0.04), step(0.01), step(0.04)})
			r := rot[s]
			rot[s], _ = mathx.NormalizeQuat(mgl32.Quat{W: r.W + 4, V: r.V.Add(mgl32.Vec3{step(0.3), step(1), step(0.3)})})
			for _, rg := range []*testRig{l.rigs[s], al.rigs[s]} {
				rg.obj = Frame{Dt: dt, ObjectPos: pos[s], ObjectRot: rot[s], ObjectScale: mgl32.Vec3{1, 1, 1}}
				rg.animate()
			}
			PlaceColliders(l.shapes[s], l.descs, l.bones, l.rigs[s].pose)
			steps[s] = PrepareIn(l.a, l.a, &l.ca[s], &l.rigs[s].pose, &l.rigs[s].obj)
			n := PrepareIn(al.pool, al.pool, al.cs[s], &al.rigs[s].pose, &al.rigs[s].obj)
			StepsIn(al.pool, al.pool, al.cs[s], &al.rigs[s].pose, n, nil)
		}
		if side {
			q.Shapes(&l.shapes)
			q.StepsIn(l.a, l.a, &cs, l.poses(), &steps)
		} else {
			for s := range cs {
				StepsIn(l.a, l.a, cs[s], &l.rigs[s].pose, steps[s], l.shapes[s])
			}
		}
		for i := range l.a.Pos {
			put(l.a.Pos[i][:]...)
			put(l.a.Prev[i][:]...)
		}
		// Apply both trees (the forked one alone: the one-child rule).
		var poses [LaneCount]*Pose
		for s := range LaneCount {
			poses[s] = &al.rigs[s].pose
			ApplyIn(l.a, l.a, cs[s], &l.rigs[s].pose)
		}
		if side {
			q.ApplyIn(al.pool, al.pool, &al.cs, &poses)
		} else {
			for s, c := range al.cs {
				ApplyIn(al.pool, al.pool, c, poses[s])
			}
		}
		for s := range LaneCount {
			for _, p := range []*Pose{&l.rigs[s].pose, &al.rigs[s].pose} {
				for b := range p.LocalPos {
					put(p.LocalPos[b][:]...)
					put(p.LocalRot[b].W)
					put(p.LocalRot[b].V[:]...)
					put(p.WorldPos[b][:]...)
					put(p.WorldRot[b].W)
					put(p.WorldRot[b].V[:]...)
				}
			}
		}
	}
	return h.Sum64()
}
