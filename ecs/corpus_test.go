package sway_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/systems/spring"
)

// corpusDt and corpusFrames are the corpus runs' frame time and length:
// ten seconds at 60 frames a second.
const (
	corpusDt     = float32(1.0 / 60)
	corpusFrames = 600
	corpusStop   = 6.0 // seconds: the walk ends here
)

// corpusKey is one keyframe of the corpus walk: the root at t seconds,
// turned yaw degrees about +Y (0 faces +Z).
type corpusKey struct {
	t   float64
	pos [3]float64
	yaw float64
}

// corpusWalk walks a 1.2 m square at 1.2 m/s, turning 90 degrees left in
// half a second at each corner (four turns), and stops at corpusStop.
var corpusWalk = []corpusKey{
	{0, [3]float64{0, 0, 0}, 0}, {1, [3]float64{0, 0, 1.2}, 0}, {1.5, [3]float64{0, 0, 1.2}, 90},
	{2.5, [3]float64{1.2, 0, 1.2}, 90}, {3, [3]float64{1.2, 0, 1.2}, 180},
	{4, [3]float64{1.2, 0, 0}, 180}, {4.5, [3]float64{1.2, 0, 0}, 270},
	{5.5, [3]float64{0, 0, 0}, 270}, {corpusStop, [3]float64{0, 0, 0}, 360},
}

// corpusRootAt samples the walk at t (linear position, yaw at a constant
// rate between keyframes, still after the last): the root of frame k is
// the walk at k·dt, as sway trace places it.
func corpusRootAt(t float64) (pos [3]float64, yaw float64) {
	k := corpusWalk[len(corpusWalk)-1]
	pos, yaw = k.pos, k.yaw
	for i := 0; i+1 < len(corpusWalk); i++ {
		if a, b := corpusWalk[i], corpusWalk[i+1]; t < b.t {
			s := (t - a.t) / (b.t - a.t)
			for c := range pos {
				pos[c] = a.pos[c] + (b.pos[c]-a.pos[c])*s
			}
			yaw = a.yaw + (b.yaw-a.yaw)*s
			break
		}
	}
	return pos, yaw * math.Pi / 180
}

func corpusRoot(frame int) sway.Transform {
	pos, yaw := corpusRootAt(float64(frame) * float64(corpusDt))
	t := sway.At(mgl32.Vec3{float32(pos[0]), float32(pos[1]), float32(pos[2])})
	t.Rot = mgl32.Quat{W: float32(math.Cos(yaw / 2)), V: mgl32.Vec3{0, float32(math.Sin(yaw / 2)), 0}}
	return t
}

// loadCorpusRig writes a corpus file and loads it as a game would.
func loadCorpusRig(t testing.TB, c gltfrig.CorpusFile) *sway.Rig {
	t.Helper()
	glb, err := c.GLB()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), c.Name+".vrm")
	if err := os.WriteFile(path, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := sway.LoadRig(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 0 {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	return r
}

// corpusRun is a corpus character stepped along the walk.
type corpusRun struct {
	w    *sway.World
	e    arche.Entity
	skel *sway.Skeleton
}

func newCorpusRun(t testing.TB, r *sway.Rig, workers int) *corpusRun {
	t.Helper()
	w, err := sway.NewWorld(sway.Options{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	e, err := w.AddRig(r, corpusRoot(0))
	if err != nil {
		t.Fatal(err)
	}
	skel, _ := w.Skeleton(e)
	return &corpusRun{w: w, e: e, skel: skel}
}

// step runs frame k: the root at the walk's k·dt, then one step.
func (c *corpusRun) step(t testing.TB, k int) sway.PoseView {
	t.Helper()
	if err := c.w.SetRoot(c.e, corpusRoot(k)); err != nil {
		t.Fatal(err)
	}
	if err := c.w.Step(corpusDt); err != nil {
		t.Fatalf("frame %d: %v", k, err)
	}
	pose, err := c.w.Pose(c.e)
	if err != nil {
		t.Fatal(err)
	}
	return pose
}

// corpusChain is what the smoke test watches of one spring: its bones
// from the first joint to the tip bone, the bone it hangs from, and its
// length (bone lengths at rest, the 0.x virtual tail included).
type corpusChain struct {
	name   string
	parent int
	bones  []int
	length float64
}

func corpusChains(t testing.TB, r *sway.Rig, skel *sway.Skeleton) []corpusChain {
	t.Helper()
	mp := skel.ModelPos()
	var out []corpusChain
	for _, s := range r.Springs {
		c := corpusChain{name: s.Name}
		for _, j := range s.Joints {
			b := skel.Index(j.Bone)
			if b < 0 {
				t.Fatalf("spring %s: no bone %q", s.Name, j.Bone)
			}
			if len(c.bones) > 0 {
				c.length += float64(mp[b].Sub(mp[c.bones[len(c.bones)-1]]).Len())
			}
			c.bones = append(c.bones, b)
		}
		c.parent = int(skel.Parents()[c.bones[0]])
		c.length += float64(s.VirtualTail * maxAbs3(skel.ModelScale()[c.bones[len(c.bones)-1]]))
		out = append(out, c)
	}
	return out
}

func maxAbs3(v mgl32.Vec3) float32 {
	return max(abs32(v[0]), abs32(v[1]), abs32(v[2]))
}

// restAt is where a bone would be at rest, carried rigidly with bone p's
// current world transform (rotation, position and uniform scale).
func restAt(skel *sway.Skeleton, pose sway.PoseView, p, b int) mgl32.Vec3 {
	mp, mr, ms := skel.ModelPos(), skel.ModelRot(), skel.ModelScale()
	local := mr[p].Inverse().Rotate(mp[b].Sub(mp[p])).Mul(1 / ms[p][0])
	return pose.WorldPos[p].Add(pose.WorldRot[p].Rotate(local.Mul(pose.WorldScale[p][0])))
}

// corpusLimit is a joint with a limit, as the walk test checks it: its
// bone, its parent, its child (the tail) and the limit in the reference's
// form.
type corpusLimit struct {
	bone, parent, child int
	limit               refLimit
}

func corpusLimits(r *sway.Rig, skel *sway.Skeleton) []corpusLimit {
	var out []corpusLimit
	for _, s := range r.Springs {
		for k := 0; k+1 < len(s.Joints); k++ {
			if s.Joints[k].Limit.Kind == spring.NoLimit {
				continue
			}
			b, c := skel.Index(s.Joints[k].Bone), skel.Index(s.Joints[k+1].Bone)
			axis := rNorm(vf(skel.RestPos()[c]))
			out = append(out, corpusLimit{bone: b, parent: int(skel.Parents()[b]), child: c, limit: newRefLimit(s.Joints[k].Limit, axis)})
		}
	}
	return out
}

// outside returns how far (radians) the joint's tail in pose is out of
// its limit.
func (l *corpusLimit) outside(skel *sway.Skeleton, pose sway.PoseView) float64 {
	head, tail := vf(pose.WorldPos[l.bone]), vf(pose.WorldPos[l.child])
	restRot := rQMul(refOf(sway.Transform{Rot: pose.WorldRot[l.parent]}).rot, refOf(sway.Transform{Rot: skel.RestRot()[l.bone]}).rot)
	in, _ := l.limit.apply(head, tail, restRot, 1)
	return 2 * math.Asin(min(1, rLen(rSub(in, rAdd(head, rNorm(rSub(tail, head)))))/2))
}

// Every corpus file loads, becomes a character with its springs and walks
// the square for ten seconds: no step fails, no bone is ever non-finite,
// no spring bone strays from its rest place (carried with the bone the
// spring hangs from) by more than its chain's length, no joint's tail
// leaves its limit (by more than 1e-4 rad), the springs move while
// walking, and after the stop the tips come to rest: in the last second
// no tip moves faster than 1 mm/s.
func TestCorpusWalks(t *testing.T) {
	for _, c := range gltfrig.Corpus() {
		t.Run(c.Name, func(t *testing.T) {
			r := loadCorpusRig(t, c)
			run := newCorpusRun(t, r, 1)
			if n := run.w.VRMSprings().Of(run.e).Len(); n != len(r.Springs) {
				t.Fatalf("%d springs on the character, the file has %d", n, len(r.Springs))
			}
			chains := corpusChains(t, r, run.skel)
			limits := corpusLimits(r, run.skel)
			prev := make([]mgl32.Vec3, run.skel.NumBones())
			var stray, moved, lastSpeed, out float64
			worst := ""
			for k := 0; k < corpusFrames; k++ {
				pose := run.step(t, k)
				for b, p := range pose.WorldPos {
					if !finite3(p) || !finite4(pose.WorldRot[b]) {
						t.Fatalf("frame %d: bone %s at %v, %v", k, run.skel.BoneName(b), p, pose.WorldRot[b])
					}
				}
				for i := range limits {
					if d := limits[i].outside(run.skel, pose); d > out || d != d {
						out = d
						if !(d <= 1e-4) {
							t.Fatalf("frame %d: the tail of %s is %.3g rad out of its limit", k, run.skel.BoneName(limits[i].bone), d)
						}
					}
				}
				tsec := float64(k) * float64(corpusDt)
				for _, ch := range chains {
					for _, b := range ch.bones {
						d := float64(pose.WorldPos[b].Sub(restAt(run.skel, pose, ch.parent, b)).Len())
						if d > ch.length {
							t.Fatalf("frame %d: %s (spring %s) %.3g m from its rest place, beyond the chain's %.3g m", k, run.skel.BoneName(b), ch.name, d, ch.length)
						}
						if tsec < corpusStop {
							moved = max(moved, d)
						}
						if d/ch.length > stray {
							stray, worst = d/ch.length, run.skel.BoneName(b)
						}
					}
					tip := ch.bones[len(ch.bones)-1]
					if tsec >= 9 {
						lastSpeed = max(lastSpeed, float64(pose.WorldPos[tip].Sub(prev[tip]).Len()/corpusDt))
					}
				}
				copy(prev, pose.WorldPos)
			}
			t.Logf("largest stray %.2f of its chain (%s), largest move while walking %.3g m, tip speed in the last second %.3g m/s", stray, worst, moved, lastSpeed)
			if len(limits) > 0 {
				t.Logf("%d joints with a limit, tails at most %.3g rad out of it", len(limits), out)
			}
			if moved < 0.01 {
				t.Errorf("the springs hardly move while walking (%.3g m)", moved)
			}
			if lastSpeed > 0.001 {
				t.Errorf("a tip still moves at %.3g m/s in the last second, 4 s after the stop", lastSpeed)
			}
		})
	}
}

// The scale rule: the scale a file has at rest is its authoring frame and
// changes nothing. Each rest-scaled corpus file (an Armature at 0.01 above
// centimetres, a spring root at 0.25 and a collider empty at 0.5) and its
// twin written without the scales give the same world position of every
// bone to 1e-4 m over the ten-second walk.
func TestCorpusScaleRule(t *testing.T) {
	pairs := 0
	for _, c := range gltfrig.Corpus() {
		if c.Twin == "" {
			continue
		}
		pairs++
		t.Run(c.Name, func(t *testing.T) {
			twin, ok := gltfrig.CorpusByName(c.Twin)
			if !ok {
				t.Fatalf("no twin %q", c.Twin)
			}
			a, b := newCorpusRun(t, loadCorpusRig(t, c), 1), newCorpusRun(t, loadCorpusRig(t, twin), 1)
			var worst float64
			at, frame := "", 0
			for k := 0; k < corpusFrames; k++ {
				pa, pb := a.step(t, k), b.step(t, k)
				for i := 0; i < a.skel.NumBones(); i++ {
					j := b.skel.Index(a.skel.BoneName(i))
					if j < 0 {
						t.Fatalf("the twin has no bone %q", a.skel.BoneName(i))
					}
					if d := float64(pa.WorldPos[i].Sub(pb.WorldPos[j]).Len()); d > worst || d != d {
						worst, at, frame = d, a.skel.BoneName(i), k
					}
				}
			}
			t.Logf("largest difference %.3g m (%s, frame %d)", worst, at, frame)
			if !(worst <= 1e-4) {
				t.Errorf("%s and its twin %s differ by %.3g m at %s, frame %d", c.Name, c.Twin, worst, at, frame)
			}
		})
	}
	if pairs == 0 {
		t.Fatal("the corpus has no twins")
	}
}
