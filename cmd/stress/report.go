package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"text/tabwriter"

	"github.com/sway-anim/sway/internal/scene"
)

// summary holds percentiles of a series in milliseconds.
type summary struct {
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
	Mean float64 `json:"mean"`
}

// summarize computes nearest-rank percentiles of a copy of xs.
func summarize(xs []float64) summary {
	if len(xs) == 0 {
		return summary{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	rank := func(p float64) float64 {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	return summary{P50: rank(0.50), P95: rank(0.95), P99: rank(0.99), Max: s[len(s)-1], Mean: sum / float64(len(s))}
}

type systemRow struct {
	Name      string  `json:"name"`
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	Mean      float64 `json:"mean_ms"`
	NsPerChar float64 `json:"ns_per_char"`
	Disabled  bool    `json:"disabled,omitempty"`
}

// report is the stress run's result; its JSON form is the machine-readable
// report of -json.
type report struct {
	Characters       int         `json:"characters"`
	Frames           int         `json:"frames"`
	Workers          int         `json:"workers"`
	GOMAXPROCS       int         `json:"gomaxprocs"`
	GoVersion        string      `json:"go_version"`
	BonesPerChar     int         `json:"bones_per_character"`
	ParticlesPerChar int         `json:"particles_per_character"`
	SetupMs          float64     `json:"setup_ms"`
	Frame            summary     `json:"frame_ms"`
	Systems          []systemRow `json:"systems"`
	// NsPerParticleStep is the chain step system alone (integrate,
	// constraints, colliders) per moving particle per sub-step.
	NsPerParticleStep float64 `json:"ns_per_particle_step"`
	// Chains says what simulates the secondary joints: dynamic or vrm.
	// NsPerJointStep is the VRM spring system (-chains vrm) per joint per
	// step: colliders placed, springs stepped, rotations written.
	Chains         string  `json:"chains"`
	NsPerJointStep float64 `json:"ns_per_joint_step"`
	// AllocsPerFrame and BytesPerFrame are the steady state: frames after
	// the first, which sizes the per-frame buffers once.
	AllocsPerFrame   float64 `json:"allocs_per_frame"`
	BytesPerFrame    float64 `json:"bytes_per_frame"`
	FirstFrameAllocs uint64  `json:"first_frame_allocs"`
	FirstFrameBytes  uint64  `json:"first_frame_bytes"`
	PeakHeapBytes    uint64  `json:"peak_heap_bytes"`
	Checksum         string  `json:"checksum"`
	// Rig is the skeleton: standard or skirt.
	Rig string `json:"rig"`
	// The skirt's maxima over the run (-rig skirt only), measured on
	// SkirtSampled characters after every frame (see skirtProbe): the
	// deepest any skirt point or segment went inside a leg capsule, in
	// mm, and the largest relative change of a distance between
	// neighbouring strands' same-depth points from its rest length; with
	// the deepest penetration's frame, character and motion, and the
	// maxima by the motion playing.
	SkirtPenetrationMaxMm    *float64                  `json:"skirt_penetration_max_mm,omitempty"`
	SkirtNeighbourStretchMax *float64                  `json:"skirt_neighbour_stretch_max,omitempty"`
	SkirtSampled             int                       `json:"skirt_sampled_characters,omitempty"`
	SkirtMeasuredFrames      int                       `json:"skirt_measured_frames,omitempty"` // the frames after the first second
	SkirtPenetrationWorst    *skirtWorst               `json:"skirt_penetration_worst,omitempty"`
	SkirtByMotion            map[string]skirtMotionRow `json:"skirt_by_motion,omitempty"`
}

func (r *report) print(out io.Writer) {
	fmt.Fprintf(out, "\n%d characters x %d bones, %d frames, %d workers (GOMAXPROCS %d, %s), set-up %.0f ms\n\n",
		r.Characters, r.BonesPerChar, r.Frames, r.Workers, r.GOMAXPROCS, r.GoVersion, r.SetupMs)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "system\tp50 ms\tp99 ms\tshare\tns/char\t")
	for _, s := range r.Systems {
		if s.Disabled {
			continue
		}
		share := 0.0
		if r.Frame.Mean > 0 {
			share = 100 * s.Mean / r.Frame.Mean
		}
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.1f%%\t%.0f\t\n", s.Name, s.P50, s.P99, share, s.NsPerChar)
	}
	tw.Flush()
	fmt.Fprintf(out, "\nframe (sway step) ms: p50 %.3f  p95 %.3f  p99 %.3f  max %.3f  mean %.3f\n",
		r.Frame.P50, r.Frame.P95, r.Frame.P99, r.Frame.Max, r.Frame.Mean)
	if r.NsPerParticleStep > 0 {
		fmt.Fprintf(out, "dynamic chain step: %.1f ns per particle per sub-step (%d moving particles per character)\n",
			r.NsPerParticleStep, r.ParticlesPerChar)
	}
	if r.NsPerJointStep > 0 {
		fmt.Fprintf(out, "VRM spring step: %.1f ns per joint-step (%d joints per character)\n",
			r.NsPerJointStep, r.ParticlesPerChar)
	}
	fmt.Fprintf(out, "allocations per frame after the first: %.2f (%.0f bytes); first frame %d (%d bytes, buffers sized once)\n",
		r.AllocsPerFrame, r.BytesPerFrame, r.FirstFrameAllocs, r.FirstFrameBytes)
	fmt.Fprintf(out, "peak heap %.1f MiB (%.0f bytes per character)\n",
		float64(r.PeakHeapBytes)/(1<<20), float64(r.PeakHeapBytes)/float64(r.Characters))
	if r.SkirtPenetrationMaxMm != nil {
		fmt.Fprintf(out, "skirt (%d characters measured on %d frames, all but the first second): penetration max %.1f mm, neighbour stretch max %.3f\n",
			r.SkirtSampled, r.SkirtMeasuredFrames, *r.SkirtPenetrationMaxMm, *r.SkirtNeighbourStretchMax)
		if w := r.SkirtPenetrationWorst; w != nil {
			fmt.Fprintf(out, "  deepest at frame %d, character %d, %s\n", w.Frame, w.Character, w.Motion)
		}
		for _, name := range scene.SkirtClipNames {
			m := r.SkirtByMotion[name]
			fmt.Fprintf(out, "  %-10s penetration %6.1f mm  stretch %.3f\n", name, m.PenetrationMaxMm, m.NeighbourStretchMax)
		}
	}
	fmt.Fprintf(out, "checksum %s\n", r.Checksum)
}

func (r *report) writeJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
