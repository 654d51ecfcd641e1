package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runJSON(t *testing.T, workers int) report {
	t.Helper()
	return runMode(t, workers, "dynamic")
}

func runMode(t *testing.T, workers int, chains string) report {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.json")
	var out bytes.Buffer
	cfg := config{characters: 64, frames: 30, dt: 1.0 / 60, workers: workers, seed: 3, json: path, quiet: true, chains: chains}
	if err := run(cfg, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "spring.simple") ||
		!strings.Contains(out.String(), "chain.step") || !strings.Contains(out.String(), "fk.final") || !strings.Contains(out.String(), "checksum") {
		t.Fatalf("report lacks the system table or checksum:\n%s", out.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChecksumSameForOneAndTwoWorkers(t *testing.T) {
	one, two := runJSON(t, 1), runJSON(t, 2)
	if one.Checksum == "" || one.Checksum != two.Checksum {
		t.Fatalf("checksums differ: %q (1 worker) vs %q (2 workers)", one.Checksum, two.Checksum)
	}
	if one.Workers != 1 || two.Workers != 2 || one.Characters != 64 || one.Frames != 30 || one.BonesPerChar != 85 {
		t.Fatalf("report fields: %+v", one)
	}
	if one.ParticlesPerChar != 62 || one.NsPerParticleStep <= 0 {
		t.Fatalf("particle fields: %d particles, %v ns per particle-step", one.ParticlesPerChar, one.NsPerParticleStep)
	}
	if len(one.Systems) < 3 || one.Frame.P50 <= 0 || one.Frame.P99 < one.Frame.P50 {
		t.Fatalf("timings: %+v", one)
	}
}

func TestChecksumSameForOneAndTwoWorkersVRM(t *testing.T) {
	one, two := runMode(t, 1, "vrm"), runMode(t, 2, "vrm")
	if one.Checksum == "" || one.Checksum != two.Checksum {
		t.Fatalf("checksums differ: %q (1 worker) vs %q (2 workers)", one.Checksum, two.Checksum)
	}
	if one.Chains != "vrm" || one.NsPerJointStep <= 0 || one.NsPerParticleStep != 0 {
		t.Fatalf("vrm fields: chains %q, %v ns per joint-step, %v ns per particle-step", one.Chains, one.NsPerJointStep, one.NsPerParticleStep)
	}
	if dyn := runJSON(t, 1); dyn.Checksum == one.Checksum || dyn.Chains != "dynamic" {
		t.Fatalf("-chains vrm ran the same simulation as dynamic (%q, %q)", dyn.Checksum, dyn.Chains)
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	if err := run(config{characters: 1, frames: 1, dt: 0.1, chains: "verlet"}, &bytes.Buffer{}); err == nil {
		t.Fatal("-chains verlet accepted")
	}
	if err := run(config{characters: 0, frames: 1, dt: 0.1}, &bytes.Buffer{}); err == nil {
		t.Fatal("0 characters accepted")
	}
	if err := run(config{characters: 1, frames: 1, dt: -1}, &bytes.Buffer{}); err == nil {
		t.Fatal("negative dt accepted")
	}
}

func TestSummarizePercentiles(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(100 - i) // 100 .. 1
	}
	s := summarize(xs)
	if s.P50 != 50 || s.P95 != 95 || s.P99 != 99 || s.Max != 100 || s.Mean != 50.5 {
		t.Fatalf("summary = %+v", s)
	}
}

// -rig skirt runs the skirt rig and reports the skirt's maxima in the
// JSON under the names; the checksum is the same for 1 and 2
// workers; the standard report has no skirt keys.
func TestSkirtRig(t *testing.T) {
	run1 := func(workers int) (report, map[string]any) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "report.json")
		var out bytes.Buffer
		cfg := config{characters: 6, frames: 120, dt: 1.0 / 60, workers: workers, seed: 3, json: path, quiet: true, chains: "dynamic", rig: "skirt", skirtSample: 3}
		if err := run(cfg, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "skirt (3 characters measured on 61 frames") {
			t.Fatalf("report lacks the skirt line:\n%s", out.String())
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r report
		var raw map[string]any
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		return r, raw
	}
	one, raw := run1(1)
	two, _ := run1(2)
	if one.Checksum != two.Checksum {
		t.Fatalf("checksums differ: %q (1 worker) vs %q (2 workers)", one.Checksum, two.Checksum)
	}
	pen, ok1 := raw["skirt_penetration_max_mm"].(float64)
	stretch, ok2 := raw["skirt_neighbour_stretch_max"].(float64)
	if !ok1 || !ok2 || pen < 0 || stretch <= 0 || stretch > 10 || pen > 200 {
		t.Fatalf("skirt keys: %v %v", raw["skirt_penetration_max_mm"], raw["skirt_neighbour_stretch_max"])
	}
	if one.Rig != "skirt" || one.BonesPerChar != 133 || one.ParticlesPerChar != 62+48 || one.SkirtSampled != 3 || len(one.SkirtByMotion) != 4 {
		t.Fatalf("report fields: rig %q, %d bones, %d particles, %d sampled, %d motions", one.Rig, one.BonesPerChar, one.ParticlesPerChar, one.SkirtSampled, len(one.SkirtByMotion))
	}
	std := runJSON(t, 1)
	if std.Rig != "standard" || std.SkirtPenetrationMaxMm != nil || std.SkirtNeighbourStretchMax != nil {
		t.Fatalf("the standard rig reports a skirt: %+v", std)
	}
	for _, cfg := range []config{
		{characters: 1, frames: 1, dt: 0.1, chains: "dynamic", rig: "cape"},
		{characters: 1, frames: 1, dt: 0.1, chains: "vrm", rig: "skirt"},
		{characters: 1, frames: 1, dt: 0.1, chains: "dynamic", rig: "skirt", skirtSample: -1},
	} {
		if err := run(cfg, &bytes.Buffer{}); err == nil {
			t.Fatalf("%+v accepted", cfg)
		}
	}
}
