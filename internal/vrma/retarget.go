package vrma

import (
	"fmt"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// UnitTolerance is how far from unit length an input rotation (rest or
// key) may be: closer ones are normalised, further ones rejected as a
// mistake rather than rounding (as clip keys and rest rotations elsewhere
// in sway).
const UnitTolerance = 1e-3

// Transform is a rest transform in model space: a point p local to it is
// at Translation + Rotation(Scale ⊙ p).
type Transform struct {
	Translation mgl32.Vec3 // metres
	Rotation    mgl32.Quat // unit quaternion (within UnitTolerance)
	Scale       mgl32.Vec3 // per axis; each component's absolute value in [check.MinScale, check.MaxScale]
}

// ClipBone is one humanoid bone of a VRMA clip: the rest rotations of its
// node in the clip's rig (the VRM T-pose the file's nodes hold) and its
// rotation keys.
type ClipBone struct {
	// RestLocal is the node's rest rotation relative to its parent node
	// (glTF nodes[i].rotation), a unit quaternion.
	RestLocal mgl32.Quat
	// RestWorld is the node's rest rotation in the clip's model space
	// (the product of the rest rotations from the scene root down), a unit
	// quaternion.
	RestWorld mgl32.Quat
	// Rotations holds KeyCount local rotation keys relative to the parent
	// node (the animation's rotation channel resampled to SampleRate), or
	// is empty: the bone is not animated and keeps its rest.
	Rotations []mgl32.Quat
}

// Clip is the humanoid content of a VRMA clip as plain data.
type Clip struct {
	Name       string  // for messages
	SampleRate float32 // keys per second, finite and > 0
	KeyCount   int     // keys per track, >= 1
	// Bones maps VRM 1.0 humanoid bone names (hips, spine, leftUpperArm,
	// …) to the clip's bones. Unknown names and the eyes (which VRMA
	// forbids: gaze is the lookAt track) are skipped with a warning.
	Bones map[string]ClipBone
	// HipsTranslations holds KeyCount translation keys of the hips node,
	// local to its parent node, metres; nil when the hips do not move.
	HipsTranslations []mgl32.Vec3
	// HipsParent is the rest transform of the hips' parent node in the
	// clip's model space (the identity when hips is a root: Rotation
	// (1, 0, 0, 0), Scale (1, 1, 1)). Used with HipsTranslations only.
	HipsParent Transform
	// HipsHeight is the height (model-space y) of the hips at rest, > 0
	// metres. Used with HipsTranslations only.
	HipsHeight float32
}

// AvatarBone is one humanoid bone of the avatar retargeted onto.
type AvatarBone struct {
	// Bone is the avatar's bone name (gltfrig.Rig.Humanoid's value).
	Bone string
	// RestLocal and RestWorld are the bone's rotations, relative to its
	// parent bone and in model space, in the avatar's VRM T-pose: for a
	// VRM avatar (whose rest pose is the T-pose, as VRM requires) its rest
	// rotations as loaded (a VRM 0.x rig with sway's half turn about +Y
	// included). For an avatar whose rest is another posture (an A-pose),
	// pass the rotations that put it in the T-pose: the retarget moves
	// bones relative to these, so an A-pose rest keeps its offset.
	RestLocal mgl32.Quat
	RestWorld mgl32.Quat
}

// Avatar is the humanoid of the avatar a clip is retargeted onto, in
// sway's model space (+Y up, +Z forward: VRM 1.0's, and VRM 0.x's after
// the loader's half turn).
type Avatar struct {
	// Bones maps humanoid bone names to the avatar's bones: VRM 1.0
	// names, or VRM 0.x names when VRM0 is set. Unknown names are skipped
	// with a warning.
	Bones map[string]AvatarBone
	// VRM0 says Bones is keyed by VRM 0.x names (whose thumb bones are
	// named differently, see Name1). The axes need nothing: see the
	// package doc.
	VRM0 bool
	// HipsParent is the rest transform of the hips bone's parent in model
	// space (the identity when hips is a root). Used when the clip moves
	// the hips.
	HipsParent Transform
	// HipsHeight is the height (model-space y) of the hips at rest, > 0
	// metres. Used when the clip moves the hips.
	HipsHeight float32
}

// Track is the retargeted animation of one avatar bone.
type Track struct {
	Humanoid string // the VRM 1.0 humanoid bone name
	Bone     string // the avatar's bone name
	// Rotations holds KeyCount local rotations relative to the bone's
	// parent, unit quaternions, each in the hemisphere of the one before.
	Rotations []mgl32.Quat
	// Translations holds KeyCount local translations (hips only, when the
	// clip moves the hips), else nil.
	Translations []mgl32.Vec3
}

// Result is a clip retargeted onto an avatar: ready to become an
// anim.ClipDesc once bone names are mapped to indices (ClipDesc).
type Result struct {
	Name       string
	SampleRate float32
	KeyCount   int
	// Tracks, in the order of the humanoid hierarchy (parents first), for
	// the avatar bones the clip moves; the others keep their rest.
	Tracks []Track
	// Warnings lists what was skipped: unknown bone names, the eyes, a
	// hips translation for an avatar without hips.
	Warnings []string
}

const (
	typClip   = "vrma.Clip"
	typAvatar = "vrma.Avatar"
)

// Retarget computes, once per clip and avatar, the avatar's local rotation
// keys for every humanoid bone the clip moves (and the hips translation
// keys) with the specification's pose data conversion (see the package
// doc). Bad input is reported as a *check.FieldError naming the field;
// nothing non-finite is ever returned.
func Retarget(c *Clip, a *Avatar) (*Result, error) {
	res := &Result{Name: c.Name, SampleRate: c.SampleRate, KeyCount: c.KeyCount}
	if !mathx.IsFinite(c.SampleRate) || c.SampleRate <= 0 {
		return nil, check.Errorf(typClip, "SampleRate", c.SampleRate, "must be finite and > 0")
	}
	if c.KeyCount < 1 {
		return nil, check.Errorf(typClip, "KeyCount", c.KeyCount, "must be >= 1")
	}
	n := len(humanBones)

	// The clip's normalised local rotations N (nil: not animated, the
	// identity): N = W L⁻¹ l W⁻¹ per key.
	norm := make([][]q64, n)
	for _, name := range sortedKeys(c.Bones) {
		b := c.Bones[name]
		h, ok := humanIndex[name]
		switch {
		case !ok:
			res.Warnings = append(res.Warnings, fmt.Sprintf("clip bone %q is not a VRM humanoid bone: skipped", name))
			continue
		case name == "leftEye" || name == "rightEye":
			if len(b.Rotations) > 0 {
				res.Warnings = append(res.Warnings, fmt.Sprintf("clip bone %q: VRMA gives gaze by lookAt, not eye bones: skipped", name))
			}
			continue
		}
		field := "Bones[" + name + "]"
		if len(b.Rotations) == 0 {
			continue
		}
		if len(b.Rotations) != c.KeyCount {
			return nil, check.Errorf(typClip, field+".Rotations", len(b.Rotations), "must be empty or hold KeyCount (%d) keys", c.KeyCount)
		}
		L, err := unitQuat(typClip, field+".RestLocal", b.RestLocal)
		if err != nil {
			return nil, err
		}
		W, err := unitQuat(typClip, field+".RestWorld", b.RestWorld)
		if err != nil {
			return nil, err
		}
		P := W.mul(L.inv()) // the parent node's rest world rotation
		Winv := W.inv()
		keys := make([]q64, c.KeyCount)
		for k, q := range b.Rotations {
			l, err := unitQuat(typClip, fmt.Sprintf("%s.Rotations[%d]", field, k), q)
			if err != nil {
				return nil, err
			}
			keys[k] = P.mul(l).mul(Winv)
		}
		norm[h] = keys
	}

	// The avatar's bones by humanoid index.
	avatar := make([]*AvatarBone, n)
	from := make([]string, n) // the name each came from, for messages
	for _, name := range sortedKeys(a.Bones) {
		name1 := name
		if a.VRM0 {
			name1 = Name1(name)
		}
		h, ok := humanIndex[name1]
		if !ok {
			res.Warnings = append(res.Warnings, fmt.Sprintf("avatar bone %q is not a VRM humanoid bone: skipped", name))
			continue
		}
		if avatar[h] != nil {
			return nil, check.Errorf(typAvatar, "Bones["+name+"]", name, "is the humanoid bone %s, as Bones[%s] is", name1, from[h])
		}
		b := a.Bones[name]
		if b.Bone == "" {
			return nil, check.Errorf(typAvatar, "Bones["+name+"].Bone", b.Bone, "required")
		}
		avatar[h], from[h] = &b, name
	}

	// Each avatar bone takes the normalised rotations of the humanoid
	// bones from just below its nearest ancestor the avatar has, down to
	// itself (the guide's folding of bones the avatar lacks).
	chain := make([]int, 0, 8)
	for h := range n {
		ab := avatar[h]
		if ab == nil {
			continue
		}
		chain = chain[:0]
		for p := h; p >= 0; p = humanBones[p].parent {
			if p != h && avatar[p] != nil {
				break
			}
			if norm[p] != nil {
				chain = append(chain, p)
			}
		}
		if len(chain) == 0 && !(h == 0 && c.HipsTranslations != nil) {
			continue
		}
		field := "Bones[" + from[h] + "]"
		L, err := unitQuat(typAvatar, field+".RestLocal", ab.RestLocal)
		if err != nil {
			return nil, err
		}
		W, err := unitQuat(typAvatar, field+".RestWorld", ab.RestWorld)
		if err != nil {
			return nil, err
		}
		pre := L.mul(W.inv()) // L W⁻¹, the inverse of the parent's rest world rotation
		tr := Track{Humanoid: humanBones[h].name, Bone: ab.Bone, Rotations: make([]mgl32.Quat, c.KeyCount)}
		prev := ident64
		for k := range c.KeyCount {
			nk := ident64
			for i := len(chain) - 1; i >= 0; i-- { // the highest ancestor first
				nk = nk.mul(norm[chain[i]][k])
			}
			q := pre.mul(nk).mul(W).unit()
			if k > 0 && q.dot(prev) < 0 {
				q = q.neg()
			}
			prev = q
			tr.Rotations[k] = q.quat()
		}
		res.Tracks = append(res.Tracks, tr)
	}

	if c.HipsTranslations != nil {
		if err := hipsTranslation(c, a, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// hipsTranslation fills the hips track's translations: the clip's hips
// position in its model space, scaled by the ratio of the hips heights,
// taken into the avatar's hips parent's space.
func hipsTranslation(c *Clip, a *Avatar, res *Result) error {
	if len(c.HipsTranslations) != c.KeyCount {
		return check.Errorf(typClip, "HipsTranslations", len(c.HipsTranslations), "must be nil or hold KeyCount (%d) keys", c.KeyCount)
	}
	if len(res.Tracks) == 0 || res.Tracks[0].Humanoid != "hips" {
		res.Warnings = append(res.Warnings, "the clip moves the hips, which the avatar lacks: hips translation skipped")
		return nil
	}
	if !mathx.IsFinite(c.HipsHeight) || c.HipsHeight <= 0 {
		return check.Errorf(typClip, "HipsHeight", c.HipsHeight, "must be finite and > 0")
	}
	if !mathx.IsFinite(a.HipsHeight) || a.HipsHeight <= 0 {
		return check.Errorf(typAvatar, "HipsHeight", a.HipsHeight, "must be finite and > 0")
	}
	cp, err := transform(typClip, "HipsParent", c.HipsParent)
	if err != nil {
		return err
	}
	ap, err := transform(typAvatar, "HipsParent", a.HipsParent)
	if err != nil {
		return err
	}
	s := float64(a.HipsHeight) / float64(c.HipsHeight)
	out := make([]mgl32.Vec3, c.KeyCount)
	for k, t := range c.HipsTranslations {
		if err := check.Translation(typClip, fmt.Sprintf("HipsTranslations[%d]", k), t); err != nil {
			return err
		}
		m := cp.apply([3]float64{float64(t[0]), float64(t[1]), float64(t[2])})
		for i := range m {
			m[i] *= s
		}
		l := ap.applyInv(m)
		v := mgl32.Vec3{float32(l[0]), float32(l[1]), float32(l[2])}
		if !mathx.Vec3Finite(v) || !check.Within(v, check.MaxTranslation) {
			return check.Errorf(typClip, fmt.Sprintf("HipsTranslations[%d]", k), t,
				"scaled by the hips heights (%g) and taken into the avatar's hips parent, it is %v, beyond ±%g", s, v, float32(check.MaxTranslation))
		}
		out[k] = v
	}
	res.Tracks[0].Translations = out
	return nil
}

// xform is a validated Transform in float64.
type xform struct {
	t, s [3]float64
	r    q64
}

func transform(typ, field string, t Transform) (xform, error) {
	var x xform
	if !mathx.Vec3Finite(t.Translation) || !check.Within(t.Translation, check.MaxModelExtent) {
		return x, check.Errorf(typ, field+".Translation", t.Translation, "must be finite and within ±%g", float32(check.MaxModelExtent))
	}
	r, err := unitQuat(typ, field+".Rotation", t.Rotation)
	if err != nil {
		return x, err
	}
	if err := check.Scale(typ, field+".Scale", t.Scale); err != nil {
		return x, err
	}
	for i := range 3 {
		x.t[i], x.s[i] = float64(t.Translation[i]), float64(t.Scale[i])
	}
	x.r = r
	return x, nil
}

// apply takes p from the transform's space to model space.
func (x xform) apply(p [3]float64) [3]float64 {
	v := x.r.rotate([3]float64{x.s[0] * p[0], x.s[1] * p[1], x.s[2] * p[2]})
	return [3]float64{x.t[0] + v[0], x.t[1] + v[1], x.t[2] + v[2]}
}

// applyInv takes m from model space to the transform's space.
func (x xform) applyInv(m [3]float64) [3]float64 {
	v := x.r.inv().rotate([3]float64{m[0] - x.t[0], m[1] - x.t[1], m[2] - x.t[2]})
	return [3]float64{v[0] / x.s[0], v[1] / x.s[1], v[2] / x.s[2]}
}

// unitQuat checks q (finite, unit within UnitTolerance) and returns it
// normalised in float64.
func unitQuat(typ, field string, q mgl32.Quat) (q64, error) {
	if _, err := check.UnitQuat(typ, field, q, UnitTolerance); err != nil {
		return q64{}, err
	}
	return toQ64(q).unit(), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
