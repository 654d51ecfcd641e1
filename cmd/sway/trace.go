package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
	arche "github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/mathx"
)

// Keyframe is one point of a root path (-root-path): the root's world
// position and rotation at time T seconds. Rot is a quaternion w first
// (w, x, y, z), normalised on reading. Between keyframes the position is
// interpolated linearly and the rotation by slerp (the shorter way);
// before the first and after the last the path holds still.
type Keyframe struct {
	T   float64    `json:"t"`
	Pos [3]float32 `json:"pos"`
	Rot [4]float32 `json:"rot"`
}

// Trace is the JSON output of sway trace: every bone's world transform
// per frame, bones in the skeleton's order (parents first, as Bones lists
// them). Rotations are w first.
type Trace struct {
	File    string       `json:"file"`
	Version string       `json:"version"`
	Dt      float64      `json:"dt"`
	Bones   []string     `json:"bones"`
	Frames  []TraceFrame `json:"frames"`
	// warnings are the loaded rig's (printed to standard error, not
	// part of the trace).
	warnings []string
}

// TraceFrame is the pose after one Step: the root at T, then Step(dt).
type TraceFrame struct {
	T   float64      `json:"t"`
	Pos [][3]float32 `json:"pos"`
	Rot [][4]float32 `json:"rot"`
}

// MaxTraceFrames bounds -frames (a frame of a 100-bone rig is ~7 kB of JSON).
const MaxTraceFrames = 1 << 20

func trace(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	frames := fs.Int("frames", 60, "number of frames to step")
	dt := fs.Float64("dt", 1.0/60, "seconds per frame")
	pathFile := fs.String("root-path", "", "JSON keyframes of the root (none: the root stays at the origin)")
	out := fs.String("out", "", "output file (none: standard output)")
	format := fs.String("format", "json", "json or csv")
	clip := fs.String("clip", "", "play the file's animation of this name (as authored: root motion stays on the bone)")
	vrmaFile := fs.String("vrma", "", "play this VRM Animation (.vrma) clip on the avatar, retargeted by humanoid bone (looping)")
	inPlace := fs.Bool("in-place", false, "with -clip or -vrma: extract the root motion and move the character's root by it instead")
	var file string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		file, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if file == "" && fs.NArg() > 0 {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	switch {
	case file == "":
		return usageError{fmt.Errorf("no rig file")}
	case *frames < 0 || *frames > MaxTraceFrames:
		return usageError{fmt.Errorf("-frames %d: must be in [0, %d]", *frames, MaxTraceFrames)}
	case !(*dt >= 0) || *dt > float64(sway.MaxDt) || math.IsInf(*dt, 0):
		return usageError{fmt.Errorf("-dt %v: must be in [0, %v]", *dt, sway.MaxDt)}
	case *format != "json" && *format != "csv":
		return usageError{fmt.Errorf("-format %q: json or csv", *format)}
	}
	path := []Keyframe{{Rot: [4]float32{1, 0, 0, 0}}}
	if *pathFile != "" {
		var err error
		if path, err = readPath(*pathFile); err != nil {
			return err
		}
	}
	if *inPlace && *clip == "" && *vrmaFile == "" {
		return usageError{fmt.Errorf("-in-place needs -clip or -vrma")}
	}
	if *clip != "" && *vrmaFile != "" {
		return usageError{fmt.Errorf("-clip and -vrma: play one")}
	}
	tr, err := traceRig(file, path, *frames, *dt, traceOptions{clip: *clip, vrma: *vrmaFile, inPlace: *inPlace, stderr: stderr})
	if err != nil {
		return err
	}
	for _, msg := range tr.warnings {
		fmt.Fprintf(stderr, "sway trace: warning: %s\n", msg)
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	if *format == "csv" {
		if err := writeCSV(bw, tr); err != nil {
			return err
		}
	} else {
		enc := json.NewEncoder(bw)
		if err := enc.Encode(tr); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && *out != "" {
		return f.Close()
	}
	return nil
}

type usageError struct{ error }

// readPath reads and checks a root path: at least one keyframe, times
// finite and increasing, positions finite, rotations finite and non-zero.
func readPath(name string) ([]Keyframe, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var path []Keyframe
	if err := json.Unmarshal(b, &path); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(path) == 0 {
		return nil, fmt.Errorf("%s: no keyframes", name)
	}
	for i := range path {
		k := &path[i]
		if math.IsNaN(k.T) || math.IsInf(k.T, 0) || (i > 0 && !(k.T > path[i-1].T)) {
			return nil, fmt.Errorf("%s: keyframe %d: t %v must be finite and after the previous keyframe's", name, i, k.T)
		}
		q := mgl32.Quat{W: k.Rot[0], V: mgl32.Vec3{k.Rot[1], k.Rot[2], k.Rot[3]}}
		n, ok := mathx.NormalizeQuat(q)
		if !ok || !finite3(k.Pos) {
			return nil, fmt.Errorf("%s: keyframe %d: pos %v, rot %v must be finite and rot non-zero", name, i, k.Pos, k.Rot)
		}
		k.Rot = [4]float32{n.W, n.V[0], n.V[1], n.V[2]}
	}
	return path, nil
}

func finite3(v [3]float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// rootAt samples a path at time t.
func rootAt(path []Keyframe, t float64) sway.Transform {
	i := 0
	for i+1 < len(path) && path[i+1].T <= t {
		i++
	}
	a := path[i]
	pos := mgl32.Vec3(a.Pos)
	rot := mgl32.Quat{W: a.Rot[0], V: mgl32.Vec3{a.Rot[1], a.Rot[2], a.Rot[3]}}
	if i+1 < len(path) && t > a.T {
		b := path[i+1]
		s := float32((t - a.T) / (b.T - a.T))
		pos = pos.Add(mgl32.Vec3(b.Pos).Sub(pos).Mul(s))
		q := mgl32.Quat{W: b.Rot[0], V: mgl32.Vec3{b.Rot[1], b.Rot[2], b.Rot[3]}}
		if rot.Dot(q) < 0 {
			q = q.Scale(-1)
		}
		rot, _ = mathx.NormalizeQuat(mgl32.QuatSlerp(rot, q, s))
	}
	root := sway.At(pos)
	root.Rot = rot
	return root
}

// traceOptions are what trace plays on the rig besides its springs.
type traceOptions struct {
	clip    string    // the file's animation to play, looping; "" none
	vrma    string    // a .vrma file to play on the avatar, looping; "" none
	inPlace bool      // extract the clip's root motion onto the root
	stderr  io.Writer // where warnings go
}

// traceRig loads a rig, adds it at the path's start and steps it: frame k
// puts the root at the path's time k·dt, steps dt and records every bone.
// With a clip, the file's animation plays (looping) under the springs;
// in place, its root motion moves the root on top of the path.
func traceRig(file string, path []Keyframe, frames int, dt float64, o traceOptions) (*Trace, error) {
	r, err := sway.LoadRig(file)
	if err != nil {
		return nil, err
	}
	w, err := sway.NewWorld(sway.Options{Workers: 1})
	if err != nil {
		return nil, err
	}
	defer w.Close()
	e, err := w.AddRig(r, rootAt(path, 0))
	if err != nil {
		return nil, err
	}
	skel, _ := w.Skeleton(e)
	anim, err := playClip(w, e, r, skel, o)
	if err != nil {
		return nil, err
	}
	moved := sway.Identity() // root motion so far, in the path's frame
	tr := &Trace{File: file, Version: r.Version.String(), Dt: dt, Bones: make([]string, skel.NumBones()), warnings: r.Warnings}
	for b := range tr.Bones {
		tr.Bones[b] = skel.BoneName(b)
	}
	for k := 0; k < frames; k++ {
		t := float64(k) * dt
		if err := w.SetRoot(e, onPath(path, t, moved)); err != nil {
			return nil, err
		}
		if err := w.Step(float32(dt)); err != nil {
			return nil, err
		}
		if o.inPlace {
			// As a game does: the frame's root motion moves the root
			// before the pose is read (Pose brings the world pose up to
			// date with it).
			d, yaw, err := anim.RootDelta()
			if err != nil {
				return nil, err
			}
			moved.Pos = moved.Pos.Add(moved.Rot.Rotate(d))
			moved.Rot = moved.Rot.Mul(mgl32.QuatRotate(mgl32.DegToRad(yaw), mgl32.Vec3{0, 1, 0})).Normalize()
			if err := w.SetRoot(e, onPath(path, t, moved)); err != nil {
				return nil, err
			}
		}
		pose, err := w.Pose(e)
		if err != nil {
			return nil, err
		}
		f := TraceFrame{T: t, Pos: make([][3]float32, len(tr.Bones)), Rot: make([][4]float32, len(tr.Bones))}
		for b := range tr.Bones {
			q := pose.WorldRot[b]
			f.Pos[b], f.Rot[b] = pose.WorldPos[b], [4]float32{q.W, q.V[0], q.V[1], q.V[2]}
		}
		tr.Frames = append(tr.Frames, f)
	}
	return tr, nil
}

// onPath is the root at time t of the path with the root motion moved
// so far applied in the path's frame: moved first, then turned.
func onPath(path []Keyframe, t float64, moved sway.Transform) sway.Transform {
	root := rootAt(path, t)
	if moved == sway.Identity() {
		return root
	}
	root.Pos = root.Pos.Add(root.Rot.Rotate(moved.Pos))
	root.Rot = root.Rot.Mul(moved.Rot).Normalize()
	return root
}

// playClip makes e play the rig's animation named o.clip, looping, in a
// blend space of its own; the handle is the zero value without a clip.
func playClip(w *sway.World, e arche.Entity, r *sway.Rig, skel *sway.Skeleton, o traceOptions) (sway.Animation, error) {
	if o.vrma != "" {
		v, err := sway.LoadVRMA(o.vrma)
		if err != nil {
			return sway.Animation{}, err
		}
		desc, warnings, err := v.Clip(r, skel, true)
		if err != nil {
			return sway.Animation{}, err
		}
		for _, msg := range append(v.Warnings, warnings...) {
			fmt.Fprintf(o.stderr, "sway trace: %s: warning: %s\n", o.vrma, msg)
		}
		return playDesc(w, e, desc, o)
	}
	if o.clip == "" {
		return sway.Animation{}, nil
	}
	i := -1
	var names []string
	for k, a := range r.Animations {
		names = append(names, strconv.Quote(a.Name))
		if a.Name == o.clip {
			i = k
		}
	}
	if i < 0 {
		return sway.Animation{}, fmt.Errorf("-clip %q: the file has no such animation (it has %s)", o.clip, strings.Join(names, ", "))
	}
	desc, err := r.Clip(i, skel, true)
	if err != nil {
		return sway.Animation{}, err
	}
	return playDesc(w, e, desc, o)
}

// playDesc makes e play one clip in a blend space of its own.
func playDesc(w *sway.World, e arche.Entity, desc sway.ClipDesc, o traceOptions) (sway.Animation, error) {
	clip, err := w.AddClip(desc)
	if err != nil {
		return sway.Animation{}, err
	}
	space, err := w.AddBlendSpace(sway.BlendSpaceDesc{Kind: sway.Blend1D, Clips: []sway.ClipID{clip}, Thresholds: []float32{0}})
	if err != nil {
		return sway.Animation{}, err
	}
	s := sway.DefaultAnimSettings()
	if o.inPlace {
		s.RootMotion = sway.RootInPlace
	}
	return w.Animation().Add(e, space, s)
}

// writeCSV writes one row per frame and bone; floats in the shortest form
// that reads back to the same float32.
func writeCSV(w io.Writer, tr *Trace) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"frame", "t", "bone", "px", "py", "pz", "rw", "rx", "ry", "rz"})
	num := func(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }
	for k, f := range tr.Frames {
		for b, name := range tr.Bones {
			p, q := f.Pos[b], f.Rot[b]
			_ = cw.Write([]string{strconv.Itoa(k), strconv.FormatFloat(f.T, 'g', -1, 64), name,
				num(p[0]), num(p[1]), num(p[2]), num(q[0]), num(q[1]), num(q[2]), num(q[3])})
		}
	}
	cw.Flush()
	return cw.Error()
}
