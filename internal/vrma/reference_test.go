package vrma

// A plain float64 implementation of the guide's conversion
// (how_to_transform_human_pose.md), written apart from the package code
// with 3×3 rotation matrices, and a small FK to see the motion it gives.

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

type mat [3][3]float64

func identM() mat { return mat{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

func (a mat) mul(b mat) mat {
	var c mat
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

func (a mat) t() mat {
	var c mat
	for i := range 3 {
		for j := range 3 {
			c[i][j] = a[j][i]
		}
	}
	return c
}

func (a mat) apply(v [3]float64) [3]float64 {
	var r [3]float64
	for i := range 3 {
		r[i] = a[i][0]*v[0] + a[i][1]*v[1] + a[i][2]*v[2]
	}
	return r
}

// matOf is the rotation matrix of a quaternion (normalised first).
func matOf(q mgl32.Quat) mat {
	w, x, y, z := float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])
	n := math.Sqrt(w*w + x*x + y*y + z*z)
	w, x, y, z = w/n, x/n, y/n, z/n
	return mat{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

// axisAngle is the rotation by deg degrees about axis.
func axisAngle(deg float64, axis [3]float64) mat {
	n := math.Sqrt(axis[0]*axis[0] + axis[1]*axis[1] + axis[2]*axis[2])
	x, y, z := axis[0]/n, axis[1]/n, axis[2]/n
	s, c := math.Sincos(deg * math.Pi / 180)
	C := 1 - c
	return mat{
		{c + x*x*C, x*y*C - z*s, x*z*C + y*s},
		{y*x*C + z*s, c + y*y*C, y*z*C - x*s},
		{z*x*C - y*s, z*y*C + x*s, c + z*z*C},
	}
}

// quatOfMat is a quaternion of a rotation matrix (Shepperd's method).
func quatOfMat(m mat) mgl32.Quat {
	var w, x, y, z float64
	tr := m[0][0] + m[1][1] + m[2][2]
	switch {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		w, x, y, z = s/4, (m[2][1]-m[1][2])/s, (m[0][2]-m[2][0])/s, (m[1][0]-m[0][1])/s
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := math.Sqrt(1+m[0][0]-m[1][1]-m[2][2]) * 2
		w, x, y, z = (m[2][1]-m[1][2])/s, s/4, (m[0][1]+m[1][0])/s, (m[0][2]+m[2][0])/s
	case m[1][1] > m[2][2]:
		s := math.Sqrt(1+m[1][1]-m[0][0]-m[2][2]) * 2
		w, x, y, z = (m[0][2]-m[2][0])/s, (m[0][1]+m[1][0])/s, s/4, (m[1][2]+m[2][1])/s
	default:
		s := math.Sqrt(1+m[2][2]-m[0][0]-m[1][1]) * 2
		w, x, y, z = (m[1][0]-m[0][1])/s, (m[0][2]+m[2][0])/s, (m[1][2]+m[2][1])/s, s/4
	}
	return mgl32.Quat{W: float32(w), V: mgl32.Vec3{float32(x), float32(y), float32(z)}}
}

// refParent is the humanoid hierarchy of VRMC_vrm-1.0/humanoid.md for the
// bones the fixtures use.
var refParent = map[string]string{
	"spine": "hips", "chest": "spine", "upperChest": "chest", "neck": "upperChest", "head": "neck", "jaw": "head",
	"leftShoulder": "upperChest", "leftUpperArm": "leftShoulder", "leftLowerArm": "leftUpperArm", "leftHand": "leftLowerArm",
	"rightShoulder": "upperChest", "rightUpperArm": "rightShoulder", "rightLowerArm": "rightUpperArm", "rightHand": "rightLowerArm",
	"leftUpperLeg": "hips", "leftLowerLeg": "leftUpperLeg", "leftFoot": "leftLowerLeg", "leftToes": "leftFoot",
	"rightUpperLeg": "hips", "rightLowerLeg": "rightUpperLeg", "rightFoot": "rightLowerLeg", "rightToes": "rightFoot",
}

// refBone is a humanoid bone's rest rotations in one rig, as matrices.
type refBone struct{ L, W mat }

// refNormalised is the guide's PoseForA => NormalizedLocalRotation:
// W · L⁻¹ · A.LocalRotation · W⁻¹.
func refNormalised(b refBone, local mat) mat {
	return b.W.mul(b.L.t()).mul(local).mul(b.W.t())
}

// refToAvatar is the guide's NormalizedLocalRotation => PoseForB:
// L · W⁻¹ · NormalizedLocalRotation · W.
func refToAvatar(b refBone, n mat) mat {
	return b.L.mul(b.W.t()).mul(n).mul(b.W)
}

// refRetarget converts key k of every clip bone to the avatar's bones.
// When the avatar lacks a bone, the guide applies its rotation to the
// child bones it would have turned: the normalised rotations of the
// lacking ancestors, the highest first, then the bone's own.
func refRetarget(clip map[string]refBone, keys map[string][]mat, avatar map[string]refBone, k int) map[string]mat {
	normalised := func(name string) mat {
		if ks, ok := keys[name]; ok {
			return refNormalised(clip[name], ks[k])
		}
		return identM() // a bone the clip lacks: not applied
	}
	out := map[string]mat{}
	for name, b := range avatar {
		n := normalised(name)
		for p := refParent[name]; p != ""; p = refParent[p] {
			if _, has := avatar[p]; has {
				break
			}
			n = normalised(p).mul(n)
		}
		out[name] = refToAvatar(b, n)
	}
	return out
}

// node is one node of a test rig.
type node struct {
	name     string // node name; the humanoid name too when human
	human    bool
	parent   int // index of an earlier node, -1 for a root
	localR   mat
	localT   [3]float64
	scale    float64 // uniform, 1 unless set
	worldR   mat
	worldT   [3]float64
	worldS   float64
	restWorR mat // rest world rotation (kept when posed)
}

// testRig is a node hierarchy, parents first.
type testRig struct{ nodes []node }

func (r *testRig) index(name string) int {
	for i, n := range r.nodes {
		if n.name == name {
			return i
		}
	}
	return -1
}

// fk composes the world transforms from the local ones.
func (r *testRig) fk() {
	for i := range r.nodes {
		n := &r.nodes[i]
		if n.scale == 0 {
			n.scale = 1
		}
		if n.parent < 0 {
			n.worldR, n.worldT, n.worldS = n.localR, n.localT, n.scale
			continue
		}
		p := r.nodes[n.parent]
		v := p.worldR.apply(n.localT)
		n.worldR = p.worldR.mul(n.localR)
		n.worldS = p.worldS * n.scale
		for j := range 3 {
			n.worldT[j] = p.worldT[j] + p.worldS*v[j]
		}
	}
}

// clone copies the rig.
func (r *testRig) clone() *testRig {
	return &testRig{nodes: append([]node(nil), r.nodes...)}
}
