package anim

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// unitTol is how far from unit length a rotation key may be before it is
// rejected as a mistake rather than rounding.
const unitTol = 1e-3

// TrackDesc is the key data of one animated bone. Rotations is required;
// Translations and Scales are optional (nil keeps the rest pose's value).
// Each non-nil slice holds one key per frame. Each translation component
// lies within ±1e4 m (check.MaxTranslation) and each scale component
// within ±1e4 (check.MaxScale; zero hides a bone).
type TrackDesc struct {
	Bone         int          // the bone animated: an index in [0, BoneCount), one track per bone
	Rotations    []mgl32.Quat // KeyCount local rotations relative to the parent, unit quaternions (within 1e-3)
	Translations []mgl32.Vec3 // nil, or KeyCount local translations in the parent's space, metres (skeleton units)
	Scales       []mgl32.Vec3 // nil, or KeyCount local scales relative to the parent, per axis
}

// ClipDesc describes a clip sampled at a fixed rate. Key k is at time
// k/SampleRate, so the clip lasts (KeyCount-1)/SampleRate seconds. A looping
// clip should repeat its first key as its last (as exporters write them): a
// one-second loop at 30 keys/s has 31 keys.
type ClipDesc struct {
	Name       string      // for messages
	SampleRate float32     // keys per second, finite and > 0
	KeyCount   int         // keys per track, >= 1 (1: a pose, duration 0)
	Loop       bool        // the clip wraps at its end (a blend space loops when all its clips do); else it holds its last key
	BoneCount  int         // bones of the skeleton the clip is for, >= 1
	Tracks     []TrackDesc // at most BoneCount; bones without a track keep the rest pose
}

// Validate reports the first bad field as a *check.FieldError.
func (d *ClipDesc) Validate() error {
	const typ = "ClipDesc"
	if !mathx.IsFinite(d.SampleRate) || d.SampleRate <= 0 {
		return check.Errorf(typ, "SampleRate", d.SampleRate, "must be finite and > 0")
	}
	if d.KeyCount < 1 {
		return check.Errorf(typ, "KeyCount", d.KeyCount, "must be >= 1")
	}
	if d.BoneCount < 1 {
		return check.Errorf(typ, "BoneCount", d.BoneCount, "must be >= 1")
	}
	if len(d.Tracks) > d.BoneCount {
		return check.Errorf(typ, "Tracks", len(d.Tracks), "more tracks than bones (%d)", d.BoneCount)
	}
	seen := make([]int, d.BoneCount)
	for i := range d.Tracks {
		tr := &d.Tracks[i]
		if tr.Bone < 0 || tr.Bone >= d.BoneCount {
			return check.Errorf(typ, fmt.Sprintf("Tracks[%d].Bone", i), tr.Bone, "must be in [0, %d)", d.BoneCount)
		}
		if s := seen[tr.Bone]; s > 0 {
			return check.Errorf(typ, fmt.Sprintf("Tracks[%d].Bone", i), tr.Bone, "bone already animated by Tracks[%d]", s-1)
		}
		seen[tr.Bone] = i + 1
		if len(tr.Rotations) != d.KeyCount {
			return check.Errorf(typ, fmt.Sprintf("Tracks[%d].Rotations", i), len(tr.Rotations), "must hold KeyCount (%d) keys", d.KeyCount)
		}
		for k, q := range tr.Rotations {
			if _, err := check.UnitQuat(typ, "", q, unitTol); err != nil {
				return named(err, fmt.Sprintf("Tracks[%d].Rotations[%d]", i, k))
			}
		}
		if err := validateVecKeys(typ, fmt.Sprintf("Tracks[%d].Translations", i), tr.Translations, d.KeyCount, check.Translation); err != nil {
			return err
		}
		if err := validateVecKeys(typ, fmt.Sprintf("Tracks[%d].Scales", i), tr.Scales, d.KeyCount, check.ScaleKey); err != nil {
			return err
		}
	}
	return nil
}

func validateVecKeys(typ, field string, keys []mgl32.Vec3, n int, valid func(typ, field string, v mgl32.Vec3) error) error {
	if keys == nil {
		return nil
	}
	if len(keys) != n {
		return check.Errorf(typ, field, len(keys), "must be nil or hold KeyCount (%d) keys", n)
	}
	for k, v := range keys {
		if err := valid(typ, "", v); err != nil {
			return named(err, fmt.Sprintf("%s[%d]", field, k))
		}
	}
	return nil
}

// named sets the field path of a *check.FieldError; the path is formatted
// only for a failing key, not for each of thousands of good ones.
func named(err error, field string) error {
	if fe, ok := err.(*check.FieldError); ok {
		fe.Field = field
	}
	return err
}

// Clip is immutable key data shared by every character that plays it.
// Keys are stored per channel, key-major: the keys of frame k for all
// tracks of a channel are contiguous, so sampling reads two short runs.
type Clip struct {
	name     string
	rate     float32
	keys     int
	loop     bool
	bones    int
	duration float32

	rotBones []int32
	rot      []mgl32.Quat // rot[k*len(rotBones)+i]
	posBones []int32
	pos      []mgl32.Vec3
	sclBones []int32
	scl      []mgl32.Vec3

	// Bones without a track in each channel: they take the rest pose.
	rotRest, posRest, sclRest []int32

	// rotTrack[b] and posTrack[b] are bone b's index in rotBones and
	// posBones, or -1: sampling one bone (root motion) without a search.
	rotTrack, posTrack []int32

	// maxScale[b] is the largest absolute scale component of bone b's
	// keys (0 for a bone without scale keys).
	maxScale []float32
}

// NewClip validates desc and builds a clip. Rotation keys are normalised
// unless already unit to float precision (kept bit for bit).
func NewClip(desc ClipDesc) (*Clip, error) {
	if err := desc.Validate(); err != nil {
		return nil, err
	}
	c := &Clip{
		name:     desc.Name,
		rate:     desc.SampleRate,
		keys:     desc.KeyCount,
		loop:     desc.Loop,
		bones:    desc.BoneCount,
		duration: float32(float64(desc.KeyCount-1) / float64(desc.SampleRate)),
	}
	nPos, nScl := 0, 0
	for i := range desc.Tracks {
		if desc.Tracks[i].Translations != nil {
			nPos++
		}
		if desc.Tracks[i].Scales != nil {
			nScl++
		}
	}
	nRot := len(desc.Tracks)
	c.rotBones = make([]int32, 0, nRot)
	c.posBones = make([]int32, 0, nPos)
	c.sclBones = make([]int32, 0, nScl)
	c.rot = make([]mgl32.Quat, nRot*c.keys)
	c.pos = make([]mgl32.Vec3, nPos*c.keys)
	c.scl = make([]mgl32.Vec3, nScl*c.keys)
	for i := range desc.Tracks {
		tr := &desc.Tracks[i]
		r := len(c.rotBones)
		c.rotBones = append(c.rotBones, int32(tr.Bone))
		for k, q := range tr.Rotations {
			c.rot[k*nRot+r] = unitKey(q)
		}
		if tr.Translations != nil {
			p := len(c.posBones)
			c.posBones = append(c.posBones, int32(tr.Bone))
			for k, v := range tr.Translations {
				c.pos[k*nPos+p] = v
			}
		}
		if tr.Scales != nil {
			s := len(c.sclBones)
			c.sclBones = append(c.sclBones, int32(tr.Bone))
			for k, v := range tr.Scales {
				c.scl[k*nScl+s] = v
			}
		}
	}
	c.maxScale = make([]float32, c.bones)
	for i := range desc.Tracks {
		for _, v := range desc.Tracks[i].Scales {
			c.maxScale[desc.Tracks[i].Bone] = max(c.maxScale[desc.Tracks[i].Bone], check.MaxAbs(v))
		}
	}
	c.rotRest = restBones(c.rotBones, c.bones)
	c.rotTrack = trackIndex(c.rotBones, c.bones)
	c.posTrack = trackIndex(c.posBones, c.bones)
	c.posRest = restBones(c.posBones, c.bones)
	c.sclRest = restBones(c.sclBones, c.bones)
	return c, nil
}

// restBones returns the bones in [0, n) missing from tracked.
func restBones(tracked []int32, n int) []int32 {
	has := make([]bool, n)
	for _, b := range tracked {
		has[b] = true
	}
	rest := make([]int32, 0, n-len(tracked))
	for b := range n {
		if !has[b] {
			rest = append(rest, int32(b))
		}
	}
	return rest
}

// trackIndex returns, for each bone in [0, n), its index in tracked or -1.
func trackIndex(tracked []int32, n int) []int32 {
	idx := make([]int32, n)
	for b := range idx {
		idx[b] = -1
	}
	for i, b := range tracked {
		idx[b] = int32(i)
	}
	return idx
}

// unitKey keeps a key that is unit to float precision exactly as given, so
// sampling at a key time returns the authored key; others are normalised.
func unitKey(q mgl32.Quat) mgl32.Quat {
	l2 := float64(q.W)*float64(q.W) + float64(q.V[0])*float64(q.V[0]) +
		float64(q.V[1])*float64(q.V[1]) + float64(q.V[2])*float64(q.V[2])
	if math.Abs(l2-1) < 1e-6 {
		return q
	}
	n, _ := mathx.NormalizeQuat(q)
	return n
}

func (c *Clip) rotTracked() []int32 { return c.rotBones }
func (c *Clip) posTracked() []int32 { return c.posBones }
func (c *Clip) sclTracked() []int32 { return c.sclBones }

// MaxScale returns the largest absolute value of a component of bone b's
// scale keys, or 0 when the clip does not key the bone's scale. A blend
// never scales a bone beyond the largest of its clips' MaxScale and its
// rest scale; the facade bounds that against the skeleton.
func (c *Clip) MaxScale(b int) float32 { return c.maxScale[b] }

// Name returns the clip's name.
func (c *Clip) Name() string { return c.name }

// Duration returns the clip length in seconds, (KeyCount-1)/SampleRate.
func (c *Clip) Duration() float32 { return c.duration }

// SampleRate returns the keys per second.
func (c *Clip) SampleRate() float32 { return c.rate }

// KeyCount returns the number of frames.
func (c *Clip) KeyCount() int { return c.keys }

// Loop reports whether the clip wraps around.
func (c *Clip) Loop() bool { return c.loop }

// BoneCount returns the number of bones of the skeleton the clip is for.
func (c *Clip) BoneCount() int { return c.bones }

// LocalTime maps a play time in seconds into [0, Duration]: wrapped for a
// looping clip (a full loop maps to 0), clamped otherwise. NaN or ±Inf
// maps to 0.
func (c *Clip) LocalTime(t float32) float32 {
	if !mathx.IsFinite(t) || c.duration <= 0 {
		return 0
	}
	if !c.loop {
		return mathx.Clamp(t, 0, c.duration)
	}
	// floor rather than math.Mod, which is slow; float64 keeps t/d exact
	// enough for any float32 time.
	d := float64(c.duration)
	r := float64(t) - math.Floor(float64(t)/d)*d
	// Rounding may land on d (or a hair outside): that is the loop's start.
	if f := float32(r); f >= 0 && f < c.duration {
		return f
	}
	return 0
}

// Advance returns the play time t moved on by speed*dt, wrapped or clamped
// like LocalTime, so a character's time never grows without bound.
func (c *Clip) Advance(t, speed, dt float32) float32 {
	step := speed * dt
	if !mathx.IsFinite(step) {
		step = 0
	}
	return c.LocalTime(t + step)
}
