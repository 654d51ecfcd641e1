package vrma

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl32"
)

// part is one node of a fixture body: model-space rest position at a hips
// height of 1 m, facing +Z with its left at +X.
type part struct {
	name, parent string
	human        bool
	pos          [3]float64
}

var body = []part{
	{"Armature", "", false, [3]float64{0, 0, 0}},
	{"hips", "Armature", true, [3]float64{0, 1, 0}},
	{"spine", "hips", true, [3]float64{0, 1.1, 0.01}},
	{"chest", "spine", true, [3]float64{0, 1.25, 0}},
	{"upperChest", "chest", true, [3]float64{0, 1.38, -0.01}},
	{"neck", "upperChest", true, [3]float64{0, 1.5, 0}},
	{"head", "neck", true, [3]float64{0, 1.6, 0.01}},
	{"jaw", "head", true, [3]float64{0, 1.62, 0.05}},
	{"leftShoulder", "upperChest", true, [3]float64{0.03, 1.45, 0}},
	{"leftUpperArm", "leftShoulder", true, [3]float64{0.16, 1.45, 0}},
	{"leftLowerArm", "leftUpperArm", true, [3]float64{0.42, 1.45, 0}},
	{"leftHand", "leftLowerArm", true, [3]float64{0.66, 1.45, 0}},
	{"rightShoulder", "upperChest", true, [3]float64{-0.03, 1.45, 0}},
	{"rightUpperArm", "rightShoulder", true, [3]float64{-0.16, 1.45, 0}},
	{"rightLowerArm", "rightUpperArm", true, [3]float64{-0.42, 1.45, 0}},
	{"rightHand", "rightLowerArm", true, [3]float64{-0.66, 1.45, 0}},
	{"leftUpperLeg", "hips", true, [3]float64{0.09, 0.95, 0}},
	{"leftLowerLeg", "leftUpperLeg", true, [3]float64{0.09, 0.52, 0}},
	{"leftFoot", "leftLowerLeg", true, [3]float64{0.09, 0.08, 0}},
	{"leftToes", "leftFoot", true, [3]float64{0.09, 0.01, 0.12}},
	{"rightUpperLeg", "hips", true, [3]float64{-0.09, 0.95, 0}},
	{"rightLowerLeg", "rightUpperLeg", true, [3]float64{-0.09, 0.52, 0}},
	{"rightFoot", "rightLowerLeg", true, [3]float64{-0.09, 0.08, 0}},
	{"rightToes", "rightFoot", true, [3]float64{-0.09, 0.01, 0.12}},
}

// layout says how to build a fixture rig from body.
type layout struct {
	hipsHeight float64         // scales every position; 1 when 0
	randomRest uint64          // seed of random rest rotations; 0: all identity
	aPose      bool            // arms rotated 45° down about the upper arms
	twist      bool            // a non-humanoid node with its own rotation between chest and upperChest
	drop       map[string]bool // humanoid bones the rig lacks (their children hang from the parent)
	rootR      mat             // the Armature's rotation; identity when zero
	rootScale  float64         // the Armature's uniform scale; 1 when 0
	vrm0       bool            // laid out as a VRM 0.x file (facing -Z, identity rests), then turned as sway's loader does
	restOf     map[string]mat  // rest world rotations set by name (after the above)
}

// halfTurnY is half a turn about +Y.
var halfTurnY = mat{{-1, 0, 0}, {0, 1, 0}, {0, 0, -1}}

// randRot is a random rotation (axis uniform on the sphere, angle up to maxDeg).
func randRot(rng *rand.Rand, maxDeg float64) mat {
	axis := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
	return axisAngle(maxDeg*(2*rng.Float64()-1), axis)
}

// build makes the rig: each node's model-space rest position and rotation,
// turned into local transforms relative to its parent.
func build(l layout) *testRig {
	h := l.hipsHeight
	if h == 0 {
		h = 1
	}
	rootS := l.rootScale
	if rootS == 0 {
		rootS = 1
	}
	var rng *rand.Rand
	if l.randomRest != 0 {
		rng = rand.New(rand.NewPCG(l.randomRest, 7))
	}
	type world struct {
		pos   [3]float64
		rot   mat
		scale float64
	}
	var names []string
	var parents []string
	var worlds []world
	var humans []bool
	for _, p := range body {
		if l.drop[p.name] {
			continue
		}
		parent := p.parent
		for l.drop[parent] {
			parent = refParent[parent]
		}
		if l.twist && p.name == "upperChest" {
			names = append(names, "chestTwist")
			parents = append(parents, parent)
			humans = append(humans, false)
			worlds = append(worlds, world{pos: [3]float64{0, 1.3 * h, 0}, rot: axisAngle(30, [3]float64{1, 2, 3}), scale: rootS})
			parent = "chestTwist"
		}
		w := world{pos: p.pos, rot: identM(), scale: rootS}
		for i := range 3 {
			w.pos[i] *= h
		}
		if rng != nil {
			w.rot = randRot(rng, 120)
		}
		if p.name == "Armature" && l.rootR != (mat{}) {
			w.rot = l.rootR
		}
		if l.aPose {
			for _, side := range []struct {
				prefix string
				deg    float64
			}{{"left", -45}, {"right", 45}} {
				switch p.name {
				case side.prefix + "UpperArm", side.prefix + "LowerArm", side.prefix + "Hand":
					down := axisAngle(side.deg, [3]float64{0, 0, 1})
					var shoulder [3]float64
					for _, q := range body {
						if q.name == side.prefix+"UpperArm" {
							shoulder = q.pos
						}
					}
					var d [3]float64
					for i := range 3 {
						d[i] = w.pos[i] - shoulder[i]*h
					}
					d = down.apply(d)
					for i := range 3 {
						w.pos[i] = shoulder[i]*h + d[i]
					}
					w.rot = down.mul(w.rot)
				}
			}
		}
		if r, ok := l.restOf[p.name]; ok {
			w.rot = r
		}
		if l.vrm0 {
			// The 0.x file faces -Z: positions turned, every rest rotation
			// the identity (UniVRM normalises them on export).
			w.pos = halfTurnY.apply(w.pos)
			w.rot = identM()
		}
		names = append(names, p.name)
		parents = append(parents, parent)
		humans = append(humans, p.human)
		worlds = append(worlds, w)
	}
	r := &testRig{}
	for i, name := range names {
		n := node{name: name, human: humans[i], parent: -1, scale: 1}
		w := worlds[i]
		if parents[i] == "" {
			n.localR, n.localT, n.scale = w.rot, w.pos, w.scale
		} else {
			pi := r.index(parents[i])
			n.parent = pi
			pw := worlds[pi]
			var d [3]float64
			for j := range 3 {
				d[j] = (w.pos[j] - pw.pos[j]) / pw.scale
			}
			n.localR = pw.rot.t().mul(w.rot)
			n.localT = pw.rot.t().apply(d)
		}
		if l.vrm0 && n.parent < 0 {
			// sway's loader: each root's rest preceded by half a turn about +Y.
			n.localR = halfTurnY.mul(n.localR)
			n.localT = halfTurnY.apply(n.localT)
		}
		r.nodes = append(r.nodes, n)
	}
	r.fk()
	for i := range r.nodes {
		r.nodes[i].restWorR = r.nodes[i].worldR
	}
	return r
}

// motion is a clip's keys on a clip rig: local rotations per humanoid bone
// and hips local translations.
type motion struct {
	rot   map[string][]mat
	hipsT [][3]float64
}

// randomMotion turns each humanoid bone of r (but skip) by random local
// rotations up to 60° from its rest, and moves the hips.
func randomMotion(r *testRig, keys int, seed uint64, skip ...string) motion {
	rng := rand.New(rand.NewPCG(seed, 11))
	m := motion{rot: map[string][]mat{}}
	for _, n := range r.nodes {
		if !n.human || contains(skip, n.name) {
			continue
		}
		ks := make([]mat, keys)
		for k := range ks {
			ks[k] = n.localR.mul(randRot(rng, 60))
		}
		m.rot[n.name] = ks
	}
	hips := r.nodes[r.index("hips")]
	for k := range keys {
		t := hips.localT
		t[0] += 0.05 * float64(k)
		t[1] -= 0.03 * math.Sin(float64(k))
		t[2] += 0.2 * float64(k)
		m.hipsT = append(m.hipsT, t)
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func vec32(v [3]float64) mgl32.Vec3 { return mgl32.Vec3{float32(v[0]), float32(v[1]), float32(v[2])} }

// transformOf is a node's model-space rest transform.
func transformOf(n node) Transform {
	return Transform{Translation: vec32(n.worldT), Rotation: quatOfMat(n.worldR), Scale: mgl32.Vec3{float32(n.worldS), float32(n.worldS), float32(n.worldS)}}
}

// clipOf is the Clip of motion m on rig r.
func clipOf(r *testRig, m motion) *Clip {
	c := &Clip{Name: "test", SampleRate: 30, KeyCount: len(m.hipsT), Bones: map[string]ClipBone{}}
	for _, n := range r.nodes {
		if !n.human {
			continue
		}
		b := ClipBone{RestLocal: quatOfMat(n.localR), RestWorld: quatOfMat(n.worldR)}
		for _, k := range m.rot[n.name] {
			b.Rotations = append(b.Rotations, quatOfMat(k))
		}
		c.Bones[n.name] = b
	}
	for _, t := range m.hipsT {
		c.HipsTranslations = append(c.HipsTranslations, vec32(t))
	}
	hips := r.nodes[r.index("hips")]
	c.HipsParent = transformOf(r.nodes[hips.parent])
	c.HipsHeight = float32(hips.worldT[1])
	return c
}

// avatarOf is the Avatar of rig r; its bones are named "A_" + the humanoid
// name, and keyed by the 0.x names when vrm0.
func avatarOf(r *testRig, vrm0 bool) *Avatar {
	a := &Avatar{Bones: map[string]AvatarBone{}, VRM0: vrm0}
	for _, n := range r.nodes {
		if n.human {
			a.Bones[n.name] = AvatarBone{Bone: "A_" + n.name, RestLocal: quatOfMat(n.localR), RestWorld: quatOfMat(n.worldR)}
		}
	}
	hips := r.nodes[r.index("hips")]
	a.HipsParent = transformOf(r.nodes[hips.parent])
	a.HipsHeight = float32(hips.worldT[1])
	return a
}

// posedClip is rig r in key k of m.
func posedClip(r *testRig, m motion, k int) *testRig {
	p := r.clone()
	for i := range p.nodes {
		if ks, ok := m.rot[p.nodes[i].name]; ok {
			p.nodes[i].localR = matOf(quatOfMat(ks[k])) // as the file holds it: float32
		}
		if p.nodes[i].name == "hips" {
			p.nodes[i].localT = [3]float64(mgl64(vec32(m.hipsT[k])))
		}
	}
	p.fk()
	return p
}

// posedAvatar is rig r in key k of a retarget result.
func posedAvatar(r *testRig, res *Result, k int) *testRig {
	p := r.clone()
	for _, tr := range res.Tracks {
		i := p.index(tr.Humanoid)
		p.nodes[i].localR = matOf(tr.Rotations[k])
		if tr.Translations != nil {
			p.nodes[i].localT = [3]float64(mgl64(tr.Translations[k]))
		}
	}
	p.fk()
	return p
}

func mgl64(v mgl32.Vec3) [3]float64 { return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])} }

// refInputs are the reference's inputs, from the same float32 values
// Retarget is given.
func refInputs(c *Clip, a *Avatar) (clip map[string]refBone, keys map[string][]mat, avatar map[string]refBone) {
	clip, keys, avatar = map[string]refBone{}, map[string][]mat{}, map[string]refBone{}
	for name, b := range c.Bones {
		clip[name] = refBone{L: matOf(b.RestLocal), W: matOf(b.RestWorld)}
		for _, q := range b.Rotations {
			keys[name] = append(keys[name], matOf(q))
		}
	}
	for name, b := range a.Bones {
		avatar[Name1(name)] = refBone{L: matOf(b.RestLocal), W: matOf(b.RestWorld)}
	}
	return
}

func maxDiff(a, b mat) float64 {
	d := 0.0
	for i := range 3 {
		for j := range 3 {
			d = math.Max(d, math.Abs(a[i][j]-b[i][j]))
		}
	}
	return d
}

func vecDiff(a, b [3]float64) float64 {
	return math.Max(math.Abs(a[0]-b[0]), math.Max(math.Abs(a[1]-b[1]), math.Abs(a[2]-b[2])))
}
