package gltfrig

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/internal/vrma"
)

const (
	extVRMA       = "VRMC_vrm_animation"
	vrmaPath      = "extensions." + extVRMA
	vrmaHumanPath = vrmaPath + ".humanoid.humanBones"
	vrmaExprPath  = vrmaPath + ".expressions"
	vrmaLookPath  = vrmaPath + ".lookAt"
)

// MaxExpressions bounds the preset and the custom expressions of a VRMA
// file, each.
const MaxExpressions = 256

// VRMA is a VRM Animation file (.vrma: glTF with the VRMC_vrm_animation
// extension) read as plain data: the humanoid rig the clip was authored
// on and, per animation, its humanoid tracks as a vrma.Clip, the look-at
// keys and the expression weights, all at one fixed rate.
type VRMA struct {
	// SpecVersion is the extension's: "1.0", or "1.0-draft" (read as 1.0
	// with a warning).
	SpecVersion string
	// Humanoid maps VRM 1.0 humanoid bone names to the names of their
	// nodes (bones of Skeleton). The eyes are not in it: VRMA forbids
	// them (gaze is the look-at).
	Humanoid map[string]string
	// Skeleton holds the nodes the extension names (humanoid bones,
	// expressions, the look-at) and all their ancestors, with their rest
	// transforms as the file has them (+Y up, +Z forward; no turn).
	Skeleton rig.SkeletonDesc
	// LookAtOffset is lookAt.offsetFromHeadBone: the gaze's origin in the
	// head bone's space, metres; (0, 0, 0) when the file gives none.
	LookAtOffset mgl32.Vec3
	// Animations are the file's animations in file order. The
	// specification plays the first; the others are read as well.
	Animations []VRMAAnimation
	// Warnings lists what was read but ignored: a draft specVersion,
	// unknown or forbidden bone and expression names, channels the
	// extension does not define (scale, translation of a bone other than
	// the hips, channels on nodes that are no humanoid bone, expression
	// or look-at).
	Warnings []string
}

// VRMAAnimation is one animation of a VRMA file, resampled as every
// glTF animation is (see Animation): key k of every track is at time
// k/Clip.SampleRate.
type VRMAAnimation struct {
	Name     string  // the file's (made unique as Animation.Name)
	Duration float32 // seconds: (Clip.KeyCount-1)/Clip.SampleRate
	// Clip is the humanoid animation: every humanoid bone with its rest
	// rotations, and the rotation keys of those the animation turns; the
	// hips translation keys when it moves them. vrma.Retarget takes it
	// onto an avatar.
	Clip vrma.Clip
	// LookAt holds Clip.KeyCount gaze keys from the look-at node's
	// rotation channel, nil when there is none.
	LookAt []LookAtKey
	// Expressions holds the animated expressions, presets first, each
	// group sorted by name.
	Expressions []ExpressionTrack
	// Channels and Interpolations are as in Animation.
	Channels       int
	Interpolations []string
}

// LookAtKey is one gaze key: the look-at node's local rotation as the
// yaw and pitch the specification defines (Euler angles, extrinsic ZXY:
// yaw about +Y, then pitch about +X; roll is dropped), in degrees, as
// three-vrm's VRMLookAtQuaternionProxy reads them. Yaw > 0 looks toward
// +X (the model's left, facing +Z); pitch > 0 looks down, a turn about +X
// taking +Z toward -Y. The gaze direction is (sin yaw cos pitch,
// -sin pitch, cos yaw cos pitch) in the look-at space: the head's rest
// frame turned with the head.
type LookAtKey struct {
	YawDegrees   float32
	PitchDegrees float32
}

// ExpressionTrack is the weight of one expression per key: the X of the
// expression node's translation, clamped to [0, 1] as the specification
// requires.
type ExpressionTrack struct {
	Name    string
	Preset  bool // a VRM 1.0 preset expression ("happy", "aa", "blink", …); else custom
	Weights []float32
}

// The VRM 1.0 preset expressions; the look* ones cannot be animated in a
// VRMA (the look-at drives them).
var (
	vrmaPresets = map[string]bool{"happy": true, "angry": true, "sad": true, "relaxed": true, "surprised": true,
		"aa": true, "ih": true, "ou": true, "ee": true, "oh": true,
		"blink": true, "blinkLeft": true, "blinkRight": true, "neutral": true}
	vrmaLookPresets = map[string]bool{"lookUp": true, "lookDown": true, "lookLeft": true, "lookRight": true}
	vrmaVersions    = map[string]bool{"1.0": true, "1.0-draft": true}
	// vrmaRequired are the humanoid bones VRMC_vrm requires: the
	// extension requires them too, but only hips is needed to play a
	// clip, so the others missing is a warning.
	vrmaRequired = []string{"spine", "head", "leftUpperLeg", "leftLowerLeg", "leftFoot", "rightUpperLeg", "rightLowerLeg", "rightFoot",
		"leftUpperArm", "leftLowerArm", "leftHand", "rightUpperArm", "rightLowerArm", "rightHand"}
)

type vrmaNodeRef struct {
	Node *int `json:"node"`
}

type vrmaExt struct {
	SpecVersion *string `json:"specVersion"`
	Humanoid    *struct {
		HumanBones map[string]vrmaNodeRef `json:"humanBones"`
	} `json:"humanoid"`
	Expressions *struct {
		Preset map[string]vrmaNodeRef `json:"preset"`
		Custom map[string]vrmaNodeRef `json:"custom"`
	} `json:"expressions"`
	LookAt *struct {
		Node               *int      `json:"node"`
		OffsetFromHeadBone []float64 `json:"offsetFromHeadBone"`
	} `json:"lookAt"`
}

// LoadVRMA reads a .vrma file (GLB or glTF JSON; external buffers are
// read from the file's directory as Load reads them). See DecodeVRMA.
func LoadVRMA(path string) (*VRMA, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	v, err := decodeVRMA(f, filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	base := filepath.Base(path)
	v.Skeleton.Name = strings.TrimSuffix(base, filepath.Ext(base))
	return v, nil
}

// DecodeVRMA reads a VRMA file from a stream. Nothing in it is trusted:
// the limits and checks of Decode apply, and the extension's indices,
// names and values are checked; a rejection is a *check.FieldError whose
// Field is the JSON path (e.g.
// extensions.VRMC_vrm_animation.humanoid.humanBones.hips.node), or a
// *LoadError carrying the warnings noted before it.
func DecodeVRMA(r io.Reader) (*VRMA, error) { return decodeVRMA(r, "") }

func decodeVRMA(r io.Reader, dir string) (*VRMA, error) {
	js, src, err := readDocument(r, dir)
	if err != nil {
		return nil, err
	}
	doc, err := parseDocument(js, "a VRM Animation")
	if err != nil {
		return nil, err
	}
	l := &loader{rig: &Rig{}, bin: newAccessors(doc, src)}
	v, err := l.loadVRMA(doc)
	if err != nil {
		if len(l.warnings) > 0 {
			return nil, &LoadError{Err: err, Warnings: l.warnings}
		}
		return nil, err
	}
	v.Warnings = l.warnings
	return v, nil
}

// vrmaRole is what a node stands for in the extension.
type vrmaRole struct {
	kind   string // "humanoid bone", "expression", "lookAt"
	name   string // bone or expression name
	preset bool   // a preset expression
	path   string // the JSON path that named it
}

func (l *loader) loadVRMA(doc *document) (*VRMA, error) {
	if err := l.readNodes(doc.Nodes); err != nil {
		return nil, err
	}
	raw, ok := doc.Extensions[extVRMA]
	if !ok {
		return nil, bad(vrmaPath, nil, "required: a VRM Animation file has the VRMC_vrm_animation extension")
	}
	var ext vrmaExt
	if err := unmarshal(raw, &ext, vrmaPath); err != nil {
		return nil, err
	}
	v := &VRMA{Humanoid: map[string]string{}}
	switch {
	case ext.SpecVersion == nil:
		return nil, bad(vrmaPath+".specVersion", nil, "required")
	case !vrmaVersions[*ext.SpecVersion]:
		return nil, bad(vrmaPath+".specVersion", *ext.SpecVersion, "must be \"1.0\" (or the draft's \"1.0-draft\")")
	case *ext.SpecVersion == "1.0-draft":
		l.warn("%s.specVersion: the draft 1.0-draft, read as 1.0", vrmaPath)
	}
	v.SpecVersion = *ext.SpecVersion

	roles := map[int]vrmaRole{}
	claim := func(path string, ref *int, r vrmaRole) (int, error) {
		if ref == nil {
			return 0, bad(path, nil, "required")
		}
		n := *ref
		if n < 0 || n >= len(l.nodes) {
			return 0, bad(path, n, "no such node (%d nodes)", len(l.nodes))
		}
		if prev, ok := roles[n]; ok {
			return 0, bad(path, n, "node %d is already the %s %q (%s)", n, prev.kind, prev.name, prev.path)
		}
		r.path = path
		roles[n] = r
		l.needed[n] = true
		return n, nil
	}

	// Humanoid bones.
	human := map[string]int{} // bone -> node
	if ext.Humanoid != nil {
		hb := ext.Humanoid.HumanBones
		if len(hb) > MaxHumanBones {
			return nil, bad(vrmaHumanPath, len(hb), "more than MaxHumanBones (%d)", MaxHumanBones)
		}
		for _, name := range sortedNames(hb) {
			path := vrmaHumanPath + "." + name + ".node"
			switch {
			case name == "leftEye" || name == "rightEye":
				l.warn("%s: a VRM Animation cannot animate the eyes (gaze is the lookAt): ignored", vrmaHumanPath+"."+name)
				continue
			case !vrma.IsHumanBone(name):
				l.warn("%s: not a VRM 1.0 humanoid bone: ignored", vrmaHumanPath+"."+name)
				continue
			}
			n, err := claim(path, hb[name].Node, vrmaRole{kind: "humanoid bone", name: name})
			if err != nil {
				return nil, err
			}
			human[name] = n
		}
		if _, ok := human["hips"]; !ok {
			return nil, bad(vrmaHumanPath+".hips", nil, "required")
		}
		var missing []string
		for _, name := range vrmaRequired {
			if _, ok := human[name]; !ok {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			l.warn("%s: the required bones %s are missing: they keep their rest", vrmaHumanPath, strings.Join(missing, ", "))
		}
	}

	// Expressions.
	if e := ext.Expressions; e != nil {
		for _, group := range []struct {
			key    string
			m      map[string]vrmaNodeRef
			preset bool
		}{{"preset", e.Preset, true}, {"custom", e.Custom, false}} {
			gpath := vrmaExprPath + "." + group.key
			if len(group.m) > MaxExpressions {
				return nil, bad(gpath, len(group.m), "more than MaxExpressions (%d)", MaxExpressions)
			}
			for _, name := range sortedNames(group.m) {
				switch {
				case vrmaLookPresets[name]:
					l.warn("%s.%s: the look-at expressions cannot be animated (the lookAt drives them): ignored", gpath, name)
					continue
				case group.preset && !vrmaPresets[name]:
					l.warn("%s.%s: not a VRM 1.0 preset expression: ignored", gpath, name)
					continue
				case !group.preset && vrmaPresets[name]:
					l.warn("%s.%s: a custom expression cannot have a preset's name: ignored", gpath, name)
					continue
				}
				if _, err := claim(gpath+"."+name+".node", group.m[name].Node, vrmaRole{kind: "expression", name: name, preset: group.preset}); err != nil {
					return nil, err
				}
			}
		}
	}

	// Look-at.
	if la := ext.LookAt; la != nil {
		if la.Node != nil {
			if _, err := claim(vrmaLookPath+".node", la.Node, vrmaRole{kind: "lookAt", name: "lookAt"}); err != nil {
				return nil, err
			}
		}
		off, err := vec3(vrmaLookPath+".offsetFromHeadBone", la.OffsetFromHeadBone, mgl32.Vec3{})
		if err != nil {
			return nil, err
		}
		if !check.Within(off, check.MaxTranslation) {
			return nil, bad(vrmaLookPath+".offsetFromHeadBone", off, "beyond ±%g", float32(check.MaxTranslation))
		}
		v.LookAtOffset = off
	}

	if err := l.buildSkeleton(); err != nil {
		return nil, err
	}
	v.Skeleton = l.rig.Skeleton
	for name, n := range human {
		v.Humanoid[name] = l.names[n]
	}
	skel, err := rig.NewSkeleton(v.Skeleton)
	if err != nil {
		return nil, bad("nodes", nil, "%v", err)
	}

	if len(doc.Animations) == 0 {
		return nil, bad("animations", 0, "a VRM Animation needs at least one animation")
	}
	if err := l.readAnimations(doc.Animations); err != nil {
		return nil, err
	}

	// The rest of the clip's rig.
	bones := make(map[string]vrma.ClipBone, len(human))
	for name, n := range human {
		b := skel.Index(l.names[n])
		bones[name] = vrma.ClipBone{RestLocal: skel.RestRot()[b], RestWorld: skel.ModelRot()[b]}
	}
	hipsParent := vrma.Transform{Rotation: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
	var hipsHeight float32
	if n, ok := human["hips"]; ok {
		b := skel.Index(l.names[n])
		hipsHeight = skel.ModelPos()[b][1]
		if p := skel.Parents()[b]; p >= 0 {
			hipsParent = vrma.Transform{Translation: skel.ModelPos()[p], Rotation: skel.ModelRot()[p], Scale: skel.ModelScale()[p]}
		}
	}

	byNode := map[string]vrmaRole{}
	for n, r := range roles {
		byNode[l.names[n]] = r
	}
	for a := range l.rig.Animations {
		an := &l.rig.Animations[a]
		apath := fmt.Sprintf("animations[%d]", a)
		out := VRMAAnimation{Name: an.Name, Duration: an.Duration, Channels: an.Channels, Interpolations: an.Interpolations,
			Clip: vrma.Clip{Name: an.Name, SampleRate: an.SampleRate, KeyCount: an.KeyCount, HipsParent: hipsParent, HipsHeight: hipsHeight}}
		clipBones := make(map[string]vrma.ClipBone, len(bones))
		for k, b := range bones {
			clipBones[k] = b
		}
		var ignored []string
		for _, tr := range an.Tracks {
			r, ok := byNode[tr.Bone]
			if !ok {
				ignored = append(ignored, tr.Bone+" (no humanoid bone, expression or lookAt)")
				continue
			}
			switch r.kind {
			case "humanoid bone":
				if tr.Rotations != nil {
					b := clipBones[r.name]
					b.Rotations = tr.Rotations
					clipBones[r.name] = b
				}
				if tr.Translations != nil {
					if r.name == "hips" {
						out.Clip.HipsTranslations = tr.Translations
					} else {
						ignored = append(ignored, tr.Bone+" translation (only the hips may move)")
					}
				}
				if tr.Scales != nil {
					ignored = append(ignored, tr.Bone+" scale (humanoid bones are not scaled)")
				}
			case "expression":
				if tr.Translations != nil {
					w := make([]float32, len(tr.Translations))
					for k, t := range tr.Translations {
						w[k] = min(max(t[0], 0), 1)
					}
					out.Expressions = append(out.Expressions, ExpressionTrack{Name: r.name, Preset: r.preset, Weights: w})
				}
				if tr.Rotations != nil || tr.Scales != nil {
					ignored = append(ignored, tr.Bone+" rotation or scale (an expression's weight is its translation's X)")
				}
			case "lookAt":
				if tr.Rotations != nil {
					out.LookAt = make([]LookAtKey, len(tr.Rotations))
					for k, q := range tr.Rotations {
						out.LookAt[k] = yawPitch(q)
					}
				}
				if tr.Translations != nil || tr.Scales != nil {
					ignored = append(ignored, tr.Bone+" translation or scale (the gaze is the lookAt node's rotation)")
				}
			}
		}
		if out.Clip.HipsTranslations != nil && !(hipsHeight > 0) {
			return nil, bad(vrmaHumanPath+".hips.node", human["hips"], "the hips move, but rest at a height of %g m: it must be > 0 (the retarget scales by it)", hipsHeight)
		}
		if len(ignored) > 0 {
			l.warn("%s: channels ignored: %s", apath, strings.Join(ignored, "; "))
		}
		slices.SortStableFunc(out.Expressions, func(a, b ExpressionTrack) int {
			if a.Preset != b.Preset {
				if a.Preset {
					return -1
				}
				return 1
			}
			return strings.Compare(a.Name, b.Name)
		})
		out.Clip.Bones = clipBones
		v.Animations = append(v.Animations, out)
	}
	return v, nil
}

// yawPitch reads a gaze rotation as the specification's Euler angles
// (extrinsic ZXY, intrinsic YXZ: q = Ry(yaw) Rx(pitch) Rz(roll)), as
// three.js's Euler.setFromQuaternion(q, 'YXZ'), in degrees.
func yawPitch(q mgl32.Quat) LookAtKey {
	x, y, z, w := float64(q.V[0]), float64(q.V[1]), float64(q.V[2]), float64(q.W)
	m13 := 2 * (x*z + w*y)
	m23 := 2 * (y*z - w*x)
	m33 := 1 - 2*(x*x+y*y)
	m11 := 1 - 2*(y*y+z*z)
	m31 := 2 * (x*z - w*y)
	pitch := math.Asin(-max(-1, min(1, m23)))
	var yaw float64
	if math.Abs(m23) < 0.9999999 {
		yaw = math.Atan2(m13, m33)
	} else {
		yaw = math.Atan2(-m31, m11)
	}
	const deg = 180 / math.Pi
	return LookAtKey{YawDegrees: float32(yaw * deg), PitchDegrees: float32(pitch * deg)}
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
