package main

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/gltfrig"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

func inspect(out io.Writer, path string) error {
	r, err := gltfrig.Load(path)
	if err != nil {
		return err
	}
	// Build it as a world would, so that inspect shows what loads.
	skel, err := rig.NewSkeleton(r.Skeleton)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "%s: %s\n", path, r.Version)
	printSkeleton(w, skel)
	printSprings(w, r)
	printColliders(w, r)
	printHumanoid(w, r)
	printAnimations(w, r)
	printSkins(w, r)
	for _, msg := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", msg)
	}
	return w.Flush()
}

// printAnimations lists the file's animations: name, duration, the keys
// sway resampled them to, channels and interpolations.
func printAnimations(w io.Writer, r *gltfrig.Rig) {
	if len(r.Animations) == 0 {
		return
	}
	fmt.Fprintf(w, "animations: %d\n", len(r.Animations))
	for i, a := range r.Animations {
		fmt.Fprintf(w, "  %d %q: %.3f s, %d channels (%s), %d bones, resampled to %d keys at %g/s\n",
			i, a.Name, a.Duration, a.Channels, strings.Join(a.Interpolations, ", "), len(a.Tracks), a.KeyCount, a.SampleRate)
	}
}

// printSkins lists the file's skins: name and joint count.
func printSkins(w io.Writer, r *gltfrig.Rig) {
	if len(r.Skins) == 0 {
		return
	}
	fmt.Fprintf(w, "skins: %d\n", len(r.Skins))
	for i, s := range r.Skins {
		fmt.Fprintf(w, "  %d %q: %d joints\n", i, s.Name, len(s.Joints))
	}
}

// vec prints a vector; adding 0 turns -0 into 0.
func vec(v mgl32.Vec3) string {
	return fmt.Sprintf("(%.4g, %.4g, %.4g)", v[0]+0, v[1]+0, v[2]+0)
}

// printSkeleton prints the bones parents first, indented by depth, with
// their rest transform (rotation as x, y, z, w, like glTF).
func printSkeleton(w io.Writer, s *rig.Skeleton) {
	fmt.Fprintf(w, "\nskeleton: %d bones\n", s.NumBones())
	depth := make([]int, s.NumBones())
	for i, p := range s.Parents() {
		if p >= 0 {
			depth[i] = depth[p] + 1
		}
		line := strings.Repeat("  ", depth[i]+1) + s.BoneName(i) + "  pos " + vec(s.RestPos()[i])
		if q := s.RestRot()[i]; q != mgl32.QuatIdent() {
			line += fmt.Sprintf("  rot (%.4g, %.4g, %.4g, %.4g)", q.V[0]+0, q.V[1]+0, q.V[2]+0, q.W+0)
		}
		if sc := s.RestScale()[i]; sc != (mgl32.Vec3{1, 1, 1}) {
			line += "  scale " + vec(sc)
		}
		fmt.Fprintln(w, line)
	}
}

func printSprings(w io.Writer, r *gltfrig.Rig) {
	fmt.Fprintf(w, "\nsprings: %d\n", len(r.Springs))
	for i, s := range r.Springs {
		swing := len(s.Joints) - 1
		tail := "last joint is the tail"
		if s.VirtualTail > 0 {
			swing = len(s.Joints)
			tail = fmt.Sprintf("virtual tail %.3g m", s.VirtualTail)
		}
		center := s.Center
		if center == "" {
			center = "world"
		}
		fmt.Fprintf(w, "  [%d] %q: %d joints (%d swing, %s), centre %s, colliders %v\n",
			i, s.Name, len(s.Joints), swing, tail, center, s.Colliders)
		for _, j := range s.Joints {
			fmt.Fprintf(w, "      %-20s stiffness %.4g  gravity %.4g %s  drag %.4g  hitRadius %.4g%s\n",
				j.Bone, j.Stiffness, j.GravityPower, vec(j.GravityDir), j.DragForce, j.HitRadius, limit(j.Limit))
		}
	}
}

// limit prints a joint's angle limit (VRMC_springBone_limit), "" for none:
// angles in degrees (the file has radians), a spherical limit's pitch
// and yaw, the rotation as x, y, z, w like glTF when it is not the
// identity.
func limit(l spring.Limit) string {
	var out string
	switch l.Kind {
	case spring.ConeLimit:
		out = fmt.Sprintf("  limit cone %.4g°", l.AngleDegrees)
	case spring.HingeLimit:
		out = fmt.Sprintf("  limit hinge %.4g°", l.AngleDegrees)
	case spring.SphericalLimit:
		out = fmt.Sprintf("  limit spherical pitch %.4g° yaw %.4g°", l.PitchDegrees, l.YawDegrees)
	default:
		return ""
	}
	if q := l.Rotation; q != (mgl32.Quat{}) && q != mgl32.QuatIdent() {
		out += fmt.Sprintf(" rot (%.4g, %.4g, %.4g, %.4g)", q.V[0]+0, q.V[1]+0, q.V[2]+0, q.W+0)
	}
	return out
}

func printColliders(w io.Writer, r *gltfrig.Rig) {
	fmt.Fprintf(w, "\ncolliders: %d\n", len(r.Colliders))
	for i, c := range r.Colliders {
		d := c.Shape
		bound := "outside" // tails kept out of the shape
		if d.Bound == collide.Inside {
			bound = "inside" // tails kept in it
		}
		var shape string
		switch d.Kind {
		case collide.Capsule:
			shape = fmt.Sprintf("capsule %s %s r %.4g -> %s r %.4g", bound, vec(d.Offset), d.Radius, vec(d.Tail), d.TailRadius)
		case collide.Plane:
			// Outside: tails are kept on the side the normal points to.
			shape = fmt.Sprintf("plane %s point %s normal %s", bound, vec(d.Offset), vec(d.Normal))
		default:
			shape = fmt.Sprintf("sphere %s %s r %.4g", bound, vec(d.Offset), d.Radius)
		}
		fmt.Fprintf(w, "  [%d] %-20s %s\n", i, c.Bone, shape)
	}
}

func printHumanoid(w io.Writer, r *gltfrig.Rig) {
	fmt.Fprintf(w, "\nhumanoid: %d bones\n", len(r.Humanoid))
	keys := make([]string, 0, len(r.Humanoid))
	for k := range r.Humanoid {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %-24s %s\n", k, r.Humanoid[k])
	}
}
