package chain

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// applyLanes is LaneCount characters of one rig, each with its chain (built
// alike, sharing rest data) stepped some frames of its own motion, so
// that the particles are away from the animated pose.
type applyLanes struct {
	rigs [LaneCount]*testRig
	pool *Particles
	cs   [LaneCount]*Chain
}

func newApplyLanes(t *testing.T, rig func() *testRig, d Desc, frames int) *applyLanes {
	t.Helper()
	l := &applyLanes{pool: &Particles{}}
	for s := range LaneCount {
		l.rigs[s] = rig()
		d := d
		d.Settings.Damping = 0.05 * float32(s+1)
		l.cs[s] = &Chain{}
		if err := Build(l.pool, l.cs[s], &l.rigs[s].skel, &d); err != nil {
			t.Fatal(err)
		}
		l.cs[s].RestFirst = l.cs[0].First
	}
	for f := range frames {
		for s, r := range l.rigs {
			tm := float64(f)/60 + float64(s)
			r.obj.ObjectPos = mgl32.Vec3{float32(0.4 * math.Sin(3*tm)), 0, float32(0.3 * math.Cos(2*tm))}
			r.obj.ObjectRot = mgl32.QuatRotate(float32(0.5*math.Sin(tm)), mgl32.Vec3{0, 1, 0})
			r.animate()
			n := PrepareIn(l.pool, l.pool, l.cs[s], &r.pose, &r.obj)
			StepsIn(l.pool, l.pool, l.cs[s], &r.pose, n, nil)
		}
	}
	for _, r := range l.rigs {
		r.animate() // Apply reads the animated pose
	}
	return l
}

func clonePose(p Pose) Pose {
	return Pose{
		LocalPos: append([]mgl32.Vec3(nil), p.LocalPos...), LocalRot: append([]mgl32.Quat(nil), p.LocalRot...),
		WorldPos: append([]mgl32.Vec3(nil), p.WorldPos...), WorldRot: append([]mgl32.Quat(nil), p.WorldRot...),
		WorldScale: append([]mgl32.Vec3(nil), p.WorldScale...),
	}
}

// applyBoth applies the lanes' chains cs as a quad to one copy of their
// poses and each alone to another, and fails t unless the locals, the
// world poses and the returned bones agree bit for bit. It reports whether the quad took the
// lanes side by side.
func (l *applyLanes) applyBoth(t *testing.T, cs *[LaneCount]*Chain) bool {
	t.Helper()
	var quad, alone [LaneCount]Pose
	var qp [LaneCount]*Pose
	for s, r := range l.rigs {
		quad[s], alone[s] = clonePose(r.pose), clonePose(r.pose)
		qp[s] = &quad[s]
	}
	side := appliable(l.pool, l.pool, cs, &qp) >= 0
	var q Lanes
	got := q.ApplyIn(l.pool, l.pool, cs, &qp)
	if side && useAVX2 {
		checkApplyWorldGo(t, &q.q.a, l.pool, cs, &quad)
	}
	for s, c := range cs {
		want := -1
		if c != nil {
			want = ApplyIn(l.pool, l.pool, c, &alone[s])
		}
		if got[s] != want {
			t.Fatalf("lane %d: lowest bone %d, alone %d", s, got[s], want)
		}
		for b := range alone[s].LocalPos {
			if !sameBits(quad[s].LocalPos[b], alone[s].LocalPos[b]) || !sameQuatBits(quad[s].LocalRot[b], alone[s].LocalRot[b]) {
				t.Fatalf("lane %d bone %d: quad %v %v, alone %v %v", s, b,
					quad[s].LocalPos[b], quad[s].LocalRot[b], alone[s].LocalPos[b], alone[s].LocalRot[b])
			}
			if !sameBits(quad[s].WorldPos[b], alone[s].WorldPos[b]) || !sameQuatBits(quad[s].WorldRot[b], alone[s].WorldRot[b]) {
				t.Fatalf("lane %d bone %d: world pose quad %v %v, alone %v %v", s, b,
					quad[s].WorldPos[b], quad[s].WorldRot[b], alone[s].WorldPos[b], alone[s].WorldRot[b])
			}
		}
	}
	return side
}

// checkApplyWorldGo runs applyWorldGo on the columns the kernel left in a
// and fails t unless it writes the world pose applyWorld wrote into
// poses, bit for bit.
func checkApplyWorldGo(t *testing.T, a *applyQuad, pool *Particles, cs *[LaneCount]*Chain, poses *[LaneCount]Pose) {
	t.Helper()
	r, n := cs[0].RestFirst, cs[0].N
	var want [LaneCount]Pose
	for s, c := range cs {
		want[s] = clonePose(poses[s])
		a.pos[s], a.wp[s], a.wr[s] = &pool.Pos[c.First], &want[s].WorldPos[0], &want[s].WorldRot[0]
	}
	applyWorldGo(a, &pool.Bone[r], &pool.Children[r], n)
	a.pos, a.wp, a.wr = [LaneCount]*mgl32.Vec3{}, [LaneCount]*mgl32.Vec3{}, [LaneCount]*mgl32.Quat{}
	for s := range cs {
		for b := range want[s].WorldPos {
			if !sameBits(poses[s].WorldPos[b], want[s].WorldPos[b]) || !sameQuatBits(poses[s].WorldRot[b], want[s].WorldRot[b]) {
				t.Fatalf("lane %d bone %d: applyWorld wrote %v %v, applyWorldGo %v %v", s, b,
					poses[s].WorldPos[b], poses[s].WorldRot[b], want[s].WorldPos[b], want[s].WorldRot[b])
			}
		}
	}
}

func sameQuatBits(a, b mgl32.Quat) bool {
	return math.Float32bits(a.W) == math.Float32bits(b.W) && sameBits(a.V, b.V)
}

func applyLine() *testRig { return line(7, 0.1) }

// Lanes.ApplyIn gives each chain's ApplyIn, bit for bit, side by side.
func TestQuadApplyMatchesApplyIn(t *testing.T) { forEachLanes(t, testQuadApplyMatchesApplyIn) }

func testQuadApplyMatchesApplyIn(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    Desc
	}{
		{"bones only", Desc{Root: 1, Settings: DefaultSettings()}},
		{"end length", Desc{Root: 1, Settings: DefaultSettings(), EndLength: 0.5}},
		{"end offset", Desc{Root: 1, Settings: DefaultSettings(), EndOffset: mgl32.Vec3{0.03, -0.05, 0.02}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, frames := range []int{0, 1, 7, 30} {
				l := newApplyLanes(t, applyLine, tc.d, frames)
				if !l.applyBoth(t, &l.cs) {
					t.Fatalf("frames %d: not applied side by side", frames)
				}
			}
		})
	}
}

// A lane the kernel cannot take at a particle is finished by turn, and
// the other lanes keep the kernel's result: the simulated child direction
// opposite the animated one (FromToRotation's robust path), a particle on
// its parent, a parent's local rotation far from unit length
// (NormalizeQuat), a particle that is not finite.
func TestQuadApplyLanesLeftToTurn(t *testing.T) { forEachLanes(t, testQuadApplyLanesLeftToTurn) }

func testQuadApplyLanesLeftToTurn(t *testing.T) {
	d := Desc{Root: 1, Settings: DefaultSettings()}
	for _, tc := range []struct {
		name  string
		spoil func(l *applyLanes)
	}{
		{"opposite direction", func(l *applyLanes) {
			// Particles 0..3 on the animated pose, so that the bones above
			// turn by (nearly) nothing, and 3 -> 4 the animated way reversed.
			c := l.cs[2]
			a := AnimatedPositions(nil, c.Particles(l.pool), l.rigs[2].pose)
			p := l.pool.Pos[c.First : c.First+c.N]
			copy(p[:4], a[:4])
			p[4] = a[3].Sub(a[4].Sub(a[3]))
		}},
		{"particle on its parent", func(l *applyLanes) {
			c := l.cs[1]
			p := l.pool.Pos[c.First : c.First+c.N]
			p[3] = p[2]
		}},
		{"local rotation not unit", func(l *applyLanes) {
			q := &l.rigs[3].pose.LocalRot[3]
			*q = mgl32.Quat{W: q.W * 1.5, V: q.V.Mul(1.5)}
		}},
		{"not finite", func(l *applyLanes) {
			c := l.cs[0]
			l.pool.Pos[c.First+5] = mgl32.Vec3{float32(math.NaN()), 0, 0}
		}},
		{"every lane", func(l *applyLanes) {
			for s, c := range l.cs {
				p := l.pool.Pos[c.First : c.First+c.N]
				k := 2 + s%(c.N-2)
				p[k] = p[k-1]
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newApplyLanes(t, applyLine, d, 10)
			tc.spoil(l)
			if !l.applyBoth(t, &l.cs) {
				t.Fatal("not applied side by side")
			}
		})
	}
}

// Chains the kernel does not take are applied alone: a missing lane, a
// lane of another shape, a parent with two child particles (the one-child
// rule), a pose too short for the chain's bones.
func TestQuadApplyFallsBackToApplyIn(t *testing.T) { forEachLanes(t, testQuadApplyFallsBackToApplyIn) }

func testQuadApplyFallsBackToApplyIn(t *testing.T) {
	d := Desc{Root: 1, Settings: DefaultSettings()}
	l := newApplyLanes(t, applyLine, d, 5)
	cs := l.cs
	cs[1] = nil
	if l.applyBoth(t, &cs) {
		t.Fatal("a missing lane applied side by side")
	}
	cs = l.cs
	cs[2] = &Chain{}
	*cs[2] = *l.cs[2]
	cs[2].RestFirst = cs[2].First // its own rest data
	if l.applyBoth(t, &cs) {
		t.Fatal("lanes of different rest data applied side by side")
	}
	short := l.rigs[3].pose
	l.rigs[3].pose.LocalPos = l.rigs[3].pose.LocalPos[:4]
	if l.applyBoth(t, &l.cs) {
		t.Fatal("a pose too short applied side by side")
	}
	l.rigs[3].pose = short

	branch := func() *testRig {
		return newRig([]int32{-1, 0, 1, 2, 3, 2, 5, 6},
			[]mgl32.Vec3{{0, 1.6, 0}, {0, 0.1, 0}, {0, -0.1, 0}, {0.03, -0.1, 0}, {0, -0.1, 0}, {-0.03, -0.1, 0.02}, {0, -0.1, 0}, {0, -0.1, 0}})
	}
	l = newApplyLanes(t, branch, d, 5)
	if l.applyBoth(t, &l.cs) {
		t.Fatal("a parent of two children applied side by side")
	}
}

// A chain in several lanes (lanes 5..7 repeat lane 0 and its pose, as the
// chain apply fills a group of fewer characters) is applied once: side
// by side, with lane 0 left to turn by the kernel at a particle (its
// later lanes copy its columns), and alone, with lane 2 of other rest
// data. The poses are those of applying each distinct chain alone.
func TestQuadApplyAChainInSeveralLanesOnce(t *testing.T) {
	forEachLanes(t, testQuadApplyAChainInSeveralLanesOnce)
}

func testQuadApplyAChainInSeveralLanesOnce(t *testing.T) {
	d := Desc{Root: 1, Settings: DefaultSettings()}
	for _, tc := range []struct {
		name  string
		side  bool
		spoil func(l *applyLanes, cs *[LaneCount]*Chain)
	}{
		{"side by side", true, func(l *applyLanes, cs *[LaneCount]*Chain) {}},
		{"left to turn", true, func(l *applyLanes, cs *[LaneCount]*Chain) {
			// As in TestQuadApplyLanesLeftToTurn: 3 -> 4 the animated way
			// reversed, a half turn, which turning twice would undo.
			c := l.cs[0]
			a := AnimatedPositions(nil, c.Particles(l.pool), l.rigs[0].pose)
			p := l.pool.Pos[c.First : c.First+c.N]
			copy(p[:4], a[:4])
			p[4] = a[3].Sub(a[4].Sub(a[3]))
		}},
		{"alone", false, func(l *applyLanes, cs *[LaneCount]*Chain) {
			c := *l.cs[2]
			c.RestFirst = c.First // its own rest data
			cs[2] = &c
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const distinct = 5
			l := newApplyLanes(t, applyLine, d, 10)
			cs := l.cs
			tc.spoil(l, &cs)
			var quad, alone [LaneCount]Pose
			var qp [LaneCount]*Pose
			for s := range distinct {
				quad[s], alone[s] = clonePose(l.rigs[s].pose), clonePose(l.rigs[s].pose)
				qp[s] = &quad[s]
			}
			for s := distinct; s < LaneCount; s++ {
				cs[s], qp[s] = cs[0], qp[0]
			}
			if side := appliable(l.pool, l.pool, &cs, &qp) >= 0; side != tc.side {
				t.Fatalf("side by side %v, want %v", side, tc.side)
			}
			var q Lanes
			got := q.ApplyIn(l.pool, l.pool, &cs, &qp)
			for s := range LaneCount {
				want := got[0] // lanes past the distinct ones: lane 0's
				if s < distinct {
					want = ApplyIn(l.pool, l.pool, cs[s], &alone[s])
				}
				if got[s] != want {
					t.Fatalf("lane %d: lowest bone %d, want %d", s, got[s], want)
				}
			}
			for s := range distinct {
				for b := range alone[s].LocalPos {
					if !sameBits(quad[s].LocalPos[b], alone[s].LocalPos[b]) || !sameQuatBits(quad[s].LocalRot[b], alone[s].LocalRot[b]) ||
						!sameBits(quad[s].WorldPos[b], alone[s].WorldPos[b]) || !sameQuatBits(quad[s].WorldRot[b], alone[s].WorldRot[b]) {
						t.Fatalf("lane %d bone %d: quad %v %v %v %v, alone %v %v %v %v", s, b,
							quad[s].LocalPos[b], quad[s].LocalRot[b], quad[s].WorldPos[b], quad[s].WorldRot[b],
							alone[s].LocalPos[b], alone[s].LocalRot[b], alone[s].WorldPos[b], alone[s].WorldRot[b])
					}
				}
			}
		})
	}
}

// Random motions and spoiled lanes: the quad matches ApplyIn bit for
// bit, on the AVX2 kernel and its Go definition.
func FuzzQuadApplyMatchesApplyIn(f *testing.F) {
	f.Add(uint8(10), float32(0.01), float32(1), uint8(0), uint8(3))
	f.Add(uint8(0), float32(0), float32(1), uint8(1), uint8(0))
	f.Add(uint8(30), float32(0.5), float32(-2), uint8(2), uint8(5))
	f.Add(uint8(3), float32(3e4), float32(1e-20), uint8(3), uint8(1))
	f.Fuzz(func(t *testing.T, frames uint8, jitter, rotScale float32, lane, particle uint8) {
		if !(jitter >= 0 && jitter < 1e30) || math.IsNaN(float64(rotScale)) {
			return
		}
		l := newApplyLanes(t, applyLine, Desc{Root: 1, Settings: DefaultSettings(), EndLength: float32(frames%3) * 0.2}, int(frames%40))
		s := int(lane % 4)
		c := l.cs[s]
		i := int(particle) % c.N
		p := &l.pool.Pos[c.First+i]
		*p = p.Add(mgl32.Vec3{jitter, -jitter, 0.5 * jitter})
		if b := int(particle) % len(l.rigs[s].pose.LocalRot); b > 0 {
			q := &l.rigs[s].pose.LocalRot[b]
			*q = mgl32.Quat{W: q.W * rotScale, V: q.V.Mul(rotScale)}
		}
		defer func(old bool) { useAVX2 = old }(useAVX2)
		for _, avx2 := range laneKinds() {
			useAVX2 = avx2
			l.applyBoth(t, &l.cs)
		}
	})
}
