package gltfrig

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
)

// Animation is one entry of the file's animations, resampled to keys at a
// fixed rate: key k of every track is at time k/SampleRate, and
// (KeyCount-1)/SampleRate is Duration. It fills an anim.ClipDesc once the
// bone names are mapped to the skeleton's indices.
type Animation struct {
	// Name is the file's name for it; without one "animation<i>" (its
	// index), and a name already taken by an earlier animation becomes
	// "<name>#<i>", as bones are named.
	Name string
	// Duration is the last key time of its samplers, in seconds; it starts
	// at 0 (glTF's timeline), whatever its first key time.
	Duration float32
	// SampleRate is the keys per second of every track (see
	// MinSampleRate), > 0.
	SampleRate float32
	// KeyCount is the keys per track, >= 1 (1 when Duration is 0).
	KeyCount int
	// Tracks are the animated bones, in skeleton (node) order, one each.
	Tracks []Track
	// Channels is the number of the file's channels, those ignored
	// (morph weights, nodes outside the skeleton) included.
	Channels int
	// Interpolations lists the interpolations its channels' samplers use,
	// of "LINEAR", "STEP" and "CUBICSPLINE" in that order.
	Interpolations []string
}

// Track is the keys of one bone, in the bone's local space as the rest
// pose (rig.BoneDesc) has it: a VRM 0.x rig's root bones are turned with
// the rig. A channel the file does not animate is nil; its rest value
// holds. A non-nil slice has KeyCount keys.
type Track struct {
	Bone         string
	Rotations    []mgl32.Quat // unit, each in the hemisphere of the key before
	Translations []mgl32.Vec3
	Scales       []mgl32.Vec3
}

// Resampling rates. A glTF sampler keeps its own key times; sway's clips
// have fixed-rate keys. The rate is taken from the smallest interval
// between two keys of the animation's channels, 1/dt (rounded to a whole
// number of keys per second when within 0.1%): above MaxSampleRate it is
// MaxSampleRate; below MinSampleRate it is the smallest whole multiple of
// 1/dt at or above MinSampleRate (24 keys/s become 48), so that keys an
// exporter wrote at a fixed frame rate fall on the grid. The rate is then
// stretched by less than one key's interval so that the last key falls on
// Duration. Without two keys it is MinSampleRate.
//
// On the grid the keys are the exact curve (as the specification
// evaluates it); between grid keys sway interpolates linearly (nlerp for
// rotations), which departs from the curve. Measured against the exact
// curve at 2000 times per second (TestResampleError), for a quarter turn
// about +Y over one second resampled at 30 keys/s: LINEAR (slerp)
// 8e-7 rad; CUBICSPLINE with the tangents of a steady turn 2.6e-6 rad,
// eased in and out (zero tangents) 1.1e-3 rad (0.065°), with tangents of
// three times the steady rate 2.5e-3 rad (0.14°). The error grows with
// the square of the key interval and the curve's angular acceleration.
// LINEAR translations and scales on the grid's keys are exact; a STEP
// change is spread over one grid interval (at most 1/MinSampleRate).
const (
	MinSampleRate = 30
	MaxSampleRate = 120
)

const (
	interpLinear = "LINEAR"
	interpStep   = "STEP"
	interpCubic  = "CUBICSPLINE"
)

type jsonAnimation struct {
	Name     string            `json:"name"`
	Channels []json.RawMessage `json:"channels"`
	Samplers []json.RawMessage `json:"samplers"`
}

type jsonChannel struct {
	Sampler *int `json:"sampler"`
	Target  *struct {
		Node *int    `json:"node"`
		Path *string `json:"path"`
	} `json:"target"`
}

type jsonSampler struct {
	Input         *int    `json:"input"`
	Interpolation *string `json:"interpolation"`
	Output        *int    `json:"output"`
}

// sampler is a checked sampler: its key times and interpolation.
type sampler struct {
	path   string
	times  []float32
	interp string
	output int
}

// curve is one channel's keys, checked, ready to evaluate.
type curve struct {
	times  []float32
	values []float32 // keys × comps, CUBICSPLINE keys × 3 × comps (in-tangent, value, out-tangent)
	comps  int       // 3, or 4 for a rotation (x, y, z, w)
	interp string
}

// channelKind is a target path read into a track.
type channelKind int

const (
	kindTranslation channelKind = iota
	kindRotation
	kindScale
)

var kindPaths = [...]string{"translation", "rotation", "scale"}

// readAnimations reads every animation once the skeleton is built.
func (l *loader) readAnimations(raw []json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	if len(raw) > MaxAnimations {
		return bad("animations", len(raw), "more than MaxAnimations (%d)", MaxAnimations)
	}
	used := map[string]bool{}
	channels, keys := 0, 0
	for a := range raw {
		path := fmt.Sprintf("animations[%d]", a)
		var ja jsonAnimation
		if err := unmarshal(raw[a], &ja, path); err != nil {
			return err
		}
		channels += len(ja.Channels)
		if channels > MaxChannels {
			return bad(path+".channels", len(ja.Channels), "the animations have more than MaxChannels (%d) channels together", MaxChannels)
		}
		anim, err := l.readAnimation(path, &ja, &keys)
		if err != nil {
			return err
		}
		anim.Name = uniqueName(used, ja.Name, "animation", a)
		l.rig.Animations = append(l.rig.Animations, anim)
	}
	return nil
}

// uniqueName names the i-th item as nameNodes does.
func uniqueName(used map[string]bool, base, prefix string, i int) string {
	if base == "" {
		base = fmt.Sprintf("%s%d", prefix, i)
	}
	name := base
	for k := 0; used[name]; k++ {
		if k == 0 {
			name = fmt.Sprintf("%s#%d", base, i)
		} else {
			name = fmt.Sprintf("%s#%d.%d", base, i, k)
		}
	}
	used[name] = true
	return name
}

func (l *loader) readAnimation(path string, ja *jsonAnimation, keys *int) (Animation, error) {
	anim := Animation{Channels: len(ja.Channels)}
	if len(ja.Channels) == 0 {
		return anim, bad(path+".channels", 0, "an animation needs at least one channel")
	}
	if len(ja.Samplers) == 0 {
		return anim, bad(path+".samplers", 0, "an animation needs at least one sampler")
	}
	samplers := make([]sampler, len(ja.Samplers))
	var duration float32
	for s := range ja.Samplers {
		sp, err := l.readSampler(fmt.Sprintf("%s.samplers[%d]", path, s), ja.Samplers[s])
		if err != nil {
			return anim, err
		}
		samplers[s] = sp
		duration = max(duration, sp.times[len(sp.times)-1])
	}
	anim.Duration = duration

	type target struct {
		node int
		kind channelKind
	}
	seen := map[target]int{}
	curves := map[target]*curve{}
	interps := map[string]bool{}
	var weights, unnamed, outside []string
	for c := range ja.Channels {
		cpath := fmt.Sprintf("%s.channels[%d]", path, c)
		var jc jsonChannel
		if err := unmarshal(ja.Channels[c], &jc, cpath); err != nil {
			return anim, err
		}
		if jc.Sampler == nil {
			return anim, bad(cpath+".sampler", nil, "required")
		}
		s := *jc.Sampler
		if s < 0 || s >= len(samplers) {
			return anim, bad(cpath+".sampler", s, "no such sampler (%d samplers)", len(samplers))
		}
		interps[samplers[s].interp] = true
		if jc.Target == nil {
			return anim, bad(cpath+".target", nil, "required")
		}
		if jc.Target.Path == nil {
			return anim, bad(cpath+".target.path", nil, "required")
		}
		var kind channelKind
		switch p := *jc.Target.Path; p {
		case "translation":
			kind = kindTranslation
		case "rotation":
			kind = kindRotation
		case "scale":
			kind = kindScale
		case "weights", "pointer":
			weights = append(weights, fmt.Sprintf("%d (%s)", c, p))
			continue
		default:
			return anim, bad(cpath+".target.path", p, "must be translation, rotation, scale or weights")
		}
		if jc.Target.Node == nil {
			unnamed = append(unnamed, fmt.Sprint(c))
			continue
		}
		node := *jc.Target.Node
		if node < 0 || node >= len(l.nodes) {
			return anim, bad(cpath+".target.node", node, "no such node (%d nodes)", len(l.nodes))
		}
		t := target{node, kind}
		if prev, ok := seen[t]; ok {
			return anim, bad(cpath+".target", node, "node %d's %s is already animated by channels[%d]", node, kindPaths[kind], prev)
		}
		seen[t] = c
		if !l.needed[node] {
			outside = append(outside, fmt.Sprintf("%d (%s)", c, l.names[node]))
			continue
		}
		cv, err := l.readCurve(&samplers[s], kind)
		if err != nil {
			return anim, err
		}
		curves[t] = cv
	}
	if len(weights) > 0 {
		l.warn("%s: channels %s ignored: morph target weights (and KHR_animation_pointer) are not read", path, strings.Join(weights, ", "))
	}
	if len(unnamed) > 0 {
		l.warn("%s: channels %s ignored: they target no node", path, strings.Join(unnamed, ", "))
	}
	if len(outside) > 0 {
		l.warn("%s: channels %s ignored: their nodes are outside the skeleton", path, strings.Join(outside, ", "))
	}
	for _, name := range []string{interpLinear, interpStep, interpCubic} {
		if interps[name] {
			anim.Interpolations = append(anim.Interpolations, name)
		}
	}

	// The grid.
	dt := math.Inf(1)
	for _, cv := range curves {
		for k := 1; k < len(cv.times); k++ {
			dt = min(dt, float64(cv.times[k])-float64(cv.times[k-1]))
		}
	}
	anim.SampleRate, anim.KeyCount = sampleGrid(float64(duration), dt)
	grid := gridTimes{float64(duration), anim.KeyCount - 1}

	// Tracks in node order.
	nodes := make([]int, 0, len(curves))
	for t := range curves {
		nodes = append(nodes, t.node)
	}
	sort.Ints(nodes)
	vrm0 := l.rig.Version == VersionVRM0
	for i, node := range nodes {
		if i > 0 && node == nodes[i-1] {
			continue
		}
		tr := Track{Bone: l.names[node]}
		root := l.parent[node] < 0
		for kind := kindTranslation; kind <= kindScale; kind++ {
			cv := curves[target{node, kind}]
			if cv == nil {
				continue
			}
			*keys += anim.KeyCount
			if *keys > MaxResampledKeys {
				return anim, bad(path, *keys, "resampled at %g keys/s over %g s, the animations would hold more than MaxResampledKeys (%d) keys", anim.SampleRate, duration, MaxResampledKeys)
			}
			var err error
			switch kind {
			case kindRotation:
				tr.Rotations = cv.rotations(grid, vrm0 && root)
			case kindTranslation:
				tr.Translations, err = cv.vectors(grid, vrm0 && root, check.Translation)
			default:
				tr.Scales, err = cv.vectors(grid, false, check.ScaleKey)
			}
			if err != nil {
				c := seen[target{node, kind}]
				v, why := explain(err)
				return anim, bad(fmt.Sprintf("%s.channels[%d]", path, c), v, "a key between the file's keys (its curve overshoots): %s", why)
			}
		}
		anim.Tracks = append(anim.Tracks, tr)
	}
	return anim, nil
}

// explain returns a check error's value and reason.
func explain(err error) (any, string) {
	var fe *check.FieldError
	if errors.As(err, &fe) {
		return fe.Value, fe.Reason
	}
	return nil, err.Error()
}

// sampleGrid chooses the rate and key count for an animation of duration
// seconds whose smallest key interval is dt (+Inf without one); see
// MinSampleRate.
func sampleGrid(duration, dt float64) (float32, int) {
	r := float64(MinSampleRate)
	if dt > 0 && !math.IsInf(dt, 1) {
		r0 := 1 / dt
		if n := math.Round(r0); n > 0 && math.Abs(r0-n) <= 1e-3*r0 {
			r0 = n
		}
		switch {
		case r0 >= MaxSampleRate:
			r = MaxSampleRate
		case r0 >= MinSampleRate:
			r = r0
		default:
			r = r0 * math.Ceil(MinSampleRate/r0-1e-9)
		}
	}
	if duration <= 0 {
		return float32(r), 1
	}
	n := duration * r
	if k := math.Round(n); math.Abs(n-k) <= 1e-3 && k >= 1 {
		n = k
	} else {
		n = math.Ceil(n)
	}
	return float32(n / duration), int(n) + 1
}

// readSampler checks a sampler: its interpolation and key times.
func (l *loader) readSampler(path string, raw json.RawMessage) (sampler, error) {
	var js jsonSampler
	if err := unmarshal(raw, &js, path); err != nil {
		return sampler{}, err
	}
	sp := sampler{path: path, interp: interpLinear}
	if js.Interpolation != nil {
		switch *js.Interpolation {
		case interpLinear, interpStep, interpCubic:
			sp.interp = *js.Interpolation
		default:
			return sp, bad(path+".interpolation", *js.Interpolation, "must be LINEAR, STEP or CUBICSPLINE")
		}
	}
	if js.Input == nil {
		return sp, bad(path+".input", nil, "required")
	}
	if js.Output == nil {
		return sp, bad(path+".output", nil, "required")
	}
	sp.output = *js.Output
	in, err := l.bin.get(path+".input", *js.Input, accSCALAR, false)
	if err != nil {
		return sp, err
	}
	sp.times = in.Values
	for k, t := range sp.times {
		switch {
		case math.IsNaN(float64(t)) || math.IsInf(float64(t), 0):
			return sp, bad(path+".input", t, "key %d's time is not finite", k)
		case t < 0:
			return sp, bad(path+".input", t, "key %d's time is negative", k)
		case t > MaxKeyTime:
			return sp, bad(path+".input", t, "key %d's time is more than MaxKeyTime (%d s)", k, MaxKeyTime)
		case k > 0 && !(t > sp.times[k-1]):
			return sp, bad(path+".input", t, "key %d's time is not after key %d's (%g): times must increase strictly", k, k-1, sp.times[k-1])
		}
	}
	if sp.interp == interpCubic && len(sp.times) < 2 {
		return sp, bad(path+".input", len(sp.times), "CUBICSPLINE needs at least two keys")
	}
	return sp, nil
}

// readCurve reads a sampler's output for a target path and checks its
// keys: the count, finite values, unit rotations (normalised), and
// translations and scales within sway's limits.
func (l *loader) readCurve(sp *sampler, kind channelKind) (*curve, error) {
	opath := sp.path + ".output"
	typ, comps := accVEC3, 3
	if kind == kindRotation {
		typ, comps = accVEC4, 4
	}
	out, err := l.bin.get(opath, sp.output, typ, kind == kindRotation)
	if err != nil {
		return nil, err
	}
	n := len(sp.times)
	per := 1
	if sp.interp == interpCubic {
		per = 3
	}
	if out.Count != n*per {
		return nil, bad(opath, out.Count, "accessors[%d] has %d elements for %d key times: %s needs %d", sp.output, out.Count, n, sp.interp, n*per)
	}
	cv := &curve{times: sp.times, comps: comps, interp: sp.interp, values: make([]float32, len(out.Values))}
	copy(cv.values, out.Values)
	tol := float32(rig.RotationTolerance)
	if out.ComponentType == compByte || out.ComponentType == compUbyte {
		tol = 2.0 / 127 // the quantisation of byte components
	}
	for e := 0; e < out.Count; e++ {
		v := cv.values[e*comps : (e+1)*comps]
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, bad(opath, x, "element %d of accessors[%d] is not finite", e, sp.output)
			}
		}
		if per == 3 && e%3 != 1 {
			continue // a tangent
		}
		k := e / per
		var err error
		switch kind {
		case kindRotation:
			q := mgl32.Quat{W: v[3], V: mgl32.Vec3{v[0], v[1], v[2]}}
			q, err = check.UnitQuat(errType, opath, q, tol)
			v[0], v[1], v[2], v[3] = q.V[0], q.V[1], q.V[2], q.W
		case kindTranslation:
			err = check.Translation(errType, opath, mgl32.Vec3{v[0], v[1], v[2]})
		default:
			err = check.ScaleKey(errType, opath, mgl32.Vec3{v[0], v[1], v[2]})
		}
		if err != nil {
			v, why := explain(err)
			return nil, bad(opath, v, "key %d: %s", k, why)
		}
	}
	return cv, nil
}

// at evaluates the curve at time tc as the specification says (clamped
// to the first and last keys outside them), writing comps values to out.
// k is a hint: the key at or before tc found last time (for increasing
// times), updated.
func (c *curve) at(tc float64, k *int, out []float64) {
	n := len(c.times)
	per := 1
	if c.interp == interpCubic {
		per = 3
	}
	m := c.comps
	vertex := func(i int) []float32 { return c.values[(i*per+per/2)*m : (i*per+per/2+1)*m] }
	put := func(v []float32) {
		for j := range out {
			out[j] = float64(v[j])
		}
	}
	// Key times are float32: a time is compared in float32, so that a grid
	// time on a key (k/30 computed in float64) is on it, not just before.
	tf := float32(tc)
	if tf <= c.times[0] {
		put(vertex(0))
		return
	}
	if tf >= c.times[n-1] {
		put(vertex(n - 1))
		return
	}
	i := *k
	if i < 0 || i >= n-1 || c.times[i] > tf {
		i = 0
	}
	for c.times[i+1] <= tf {
		i++
	}
	*k = i
	t0, t1 := float64(c.times[i]), float64(c.times[i+1])
	td := t1 - t0
	t := min(max((tc-t0)/td, 0), 1)
	if tf == c.times[i] {
		t = 0 // on the key (its float32 time is rounded)
	}
	v0, v1 := vertex(i), vertex(i+1)
	switch c.interp {
	case interpStep:
		put(v0)
	case interpCubic:
		b0 := c.values[(i*3+2)*m : (i*3+3)*m] // out-tangent of key i
		a1 := c.values[(i+1)*3*m : ((i+1)*3+1)*m]
		t2, t3 := t*t, t*t*t
		h00 := 2*t3 - 3*t2 + 1
		h10 := td * (t3 - 2*t2 + t)
		h01 := -2*t3 + 3*t2
		h11 := td * (t3 - t2)
		for j := range out {
			out[j] = h00*float64(v0[j]) + h10*float64(b0[j]) + h01*float64(v1[j]) + h11*float64(a1[j])
		}
		if m == 4 {
			normalize4(out, v0)
		}
	default:
		if m == 4 {
			slerp(out, v0, v1, t)
			return
		}
		for j := range out {
			out[j] = (1-t)*float64(v0[j]) + t*float64(v1[j])
		}
	}
}

// slerp is the specification's spherical linear interpolation of unit
// quaternions a and b (Appendix: a = arccos|a·b|, s = sign(a·b),
// v = sin(a(1-t))/sin(a)·a + s·sin(at)/sin(a)·b); for nearly equal keys,
// where sin(a) vanishes, the weights are their limits 1-t and s·t.
func slerp(out []float64, a, b []float32, t float64) {
	var d float64
	for j := 0; j < 4; j++ {
		d += float64(a[j]) * float64(b[j])
	}
	s := 1.0
	if d < 0 {
		s = -1
	}
	ang := math.Acos(min(math.Abs(d), 1))
	w0, w1 := 1-t, s*t
	if sa := math.Sin(ang); sa > 1e-9 {
		w0, w1 = math.Sin(ang*(1-t))/sa, s*math.Sin(ang*t)/sa
	}
	for j := 0; j < 4; j++ {
		out[j] = w0*float64(a[j]) + w1*float64(b[j])
	}
	normalize4(out, a)
}

// normalize4 makes a quaternion unit; a zero one (a cubic through the
// origin) becomes fallback.
func normalize4(q []float64, fallback []float32) {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if !(l > 1e-12) {
		for j := range q {
			q[j] = float64(fallback[j])
		}
		return
	}
	for j := range q {
		q[j] /= l
	}
}

// gridTimes are the resampling times: key j of n+1 at j·duration/n,
// computed so that a key on a whole fraction of the duration is exact.
type gridTimes struct {
	duration float64
	n        int
}

func (g gridTimes) keys() int { return g.n + 1 }

func (g gridTimes) at(j int) float64 {
	if g.n == 0 {
		return 0
	}
	return float64(j) * g.duration / float64(g.n)
}

// rotations resamples a rotation curve on the grid, each key in the
// hemisphere of the one before; turn precedes each by half a turn about
// +Y (a VRM 0.x root bone).
func (c *curve) rotations(g gridTimes, turn bool) []mgl32.Quat {
	out := make([]mgl32.Quat, g.keys())
	var v [4]float64
	hint := 0
	for j := range out {
		c.at(g.at(j), &hint, v[:])
		q := mgl32.Quat{W: float32(v[3]), V: mgl32.Vec3{float32(v[0]), float32(v[1]), float32(v[2])}}
		if turn {
			q = turnYQuat(q)
		}
		if j > 0 && q.Dot(out[j-1]) < 0 {
			q = mgl32.Quat{W: -q.W, V: q.V.Mul(-1)}
		}
		out[j] = q
	}
	return out
}

// vectors resamples a translation or scale curve; turn turns each key
// half a turn about +Y (a VRM 0.x root bone's translation). Every key must
// pass valid (a cubic can overshoot the keys the file holds).
func (c *curve) vectors(g gridTimes, turn bool, valid func(typ, field string, v mgl32.Vec3) error) ([]mgl32.Vec3, error) {
	out := make([]mgl32.Vec3, g.keys())
	var v [3]float64
	hint := 0
	for j := range out {
		c.at(g.at(j), &hint, v[:])
		p := mgl32.Vec3{float32(v[0]), float32(v[1]), float32(v[2])}
		if err := valid(errType, "", p); err != nil {
			return nil, err
		}
		if turn {
			p = turnY(p)
		}
		out[j] = p
	}
	return out, nil
}
