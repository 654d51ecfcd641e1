package gltfrig

import (
	"errors"
	"testing"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/internal/rig"
)

// fieldOrIO fails unless err is a glTF *check.FieldError with a path.
func fieldOrIO(t *testing.T, err error) {
	t.Helper()
	var fe *check.FieldError
	if !errors.As(err, &fe) || fe.Type != errType || fe.Field == "" || !errors.Is(err, check.ErrInvalid) {
		t.Fatalf("error %v (%T) is not a glTF *check.FieldError naming a path", err, err)
	}
}

// checkRig fails unless everything a loaded rig refers to exists and
// every number is finite and in range.
func checkRig(t *testing.T, r *Rig) {
	t.Helper()
	s, err := rig.NewSkeleton(r.Skeleton)
	if err != nil {
		t.Fatalf("loaded skeleton does not build: %v", err)
	}
	bone := func(what, name string) {
		if s.Index(name) < 0 {
			t.Fatalf("%s names bone %q, not in the skeleton", what, name)
		}
	}
	for _, c := range r.Colliders {
		bone("collider", c.Bone)
		if err := c.Shape.Validate(); err != nil {
			t.Fatalf("collider %+v: %v", c, err)
		}
	}
	for _, sp := range r.Springs {
		if sp.Center != "" {
			bone("centre", sp.Center)
		}
		for _, c := range sp.Colliders {
			if c < 0 || c >= len(r.Colliders) {
				t.Fatalf("spring collider %d of %d", c, len(r.Colliders))
			}
		}
		for _, j := range sp.Joints {
			bone("joint", j.Bone)
			if !mathx.Vec3Finite(j.GravityDir) || !(j.Stiffness >= 0) || !(j.GravityPower >= 0) || !(j.HitRadius >= 0) || !(j.DragForce >= 0 && j.DragForce <= 1) {
				t.Fatalf("joint %+v", j)
			}
			if err := j.Limit.Validate(); err != nil {
				t.Fatalf("joint %+v: %v", j, err)
			}
		}
		// A first joint always has a parent bone to hang from (the
		// scene's, for a scene root).
		if len(sp.Joints) > 0 && s.Parents()[s.Index(sp.Joints[0].Bone)] < 0 {
			t.Fatalf("spring %q starts at the root bone %q", sp.Name, sp.Joints[0].Bone)
		}
	}
	if r.SceneBone != "" && (s.Index(r.SceneBone) != 0 || s.Parents()[0] >= 0) {
		t.Fatalf("scene bone %q is not the first bone", r.SceneBone)
	}
	for k, b := range r.Humanoid {
		bone("humanoid "+k, b)
	}
}
