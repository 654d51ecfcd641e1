package gltfrig

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/mathx"
	"github.com/sway-anim/sway/systems/collide"
	"github.com/sway-anim/sway/systems/spring"
)

const (
	extVRM1       = "VRMC_vrm"
	extSpring1    = "VRMC_springBone"
	extExtended   = "VRMC_springBone_extended_collider"
	extLimit      = "VRMC_springBone_limit"
	extVRM0       = "VRM"
	springPath    = "extensions." + extSpring1
	humanoid1Path = "extensions." + extVRM1 + ".humanoid.humanBones"
)

// readExtensions reads the VRM extensions; any other extension is ignored.
// VRM 1.0 wins when a file has both forms.
func (l *loader) readExtensions(ext map[string]json.RawMessage) error {
	_, has1 := ext[extVRM1]
	sb, hasSpring := ext[extSpring1]
	v0, has0 := ext[extVRM0]
	switch {
	case has1 || hasSpring:
		l.rig.Version = VersionVRM1
		if has0 {
			l.warn("extensions.VRM (0.x) ignored: the file also has VRM 1.0 extensions")
		}
		if has1 {
			if err := l.readHumanoid1(ext[extVRM1]); err != nil {
				return err
			}
		}
		if hasSpring {
			return l.readSpringBone1(sb)
		}
	case has0:
		l.rig.Version = VersionVRM0
		return l.readVRM0(v0)
	}
	return nil
}

func (l *loader) warn(format string, args ...any) {
	l.warnings = append(l.warnings, fmt.Sprintf(format, args...))
}

type vrm1 struct {
	Humanoid *struct {
		HumanBones map[string]struct {
			Node *int `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
}

func (l *loader) readHumanoid1(raw json.RawMessage) error {
	var v vrm1
	if err := unmarshal(raw, &v, "extensions."+extVRM1); err != nil {
		return err
	}
	if v.Humanoid == nil {
		return nil
	}
	hb := v.Humanoid.HumanBones
	if len(hb) > MaxHumanBones {
		return bad(humanoid1Path, len(hb), "more than MaxHumanBones (%d)", MaxHumanBones)
	}
	names := make([]string, 0, len(hb))
	for k := range hb {
		names = append(names, k)
	}
	sort.Strings(names) // map order is random: report the same error every time
	l.rig.Humanoid = make(map[string]string, len(hb))
	for _, k := range names {
		path := humanoid1Path + "." + k + ".node"
		if hb[k].Node == nil {
			return bad(path, nil, "required")
		}
		bone, err := l.need(path, *hb[k].Node)
		if err != nil {
			return err
		}
		l.rig.Humanoid[k] = bone
	}
	return nil
}

type springBone1 struct {
	SpecVersion    string           `json:"specVersion"`
	Colliders      []collider1      `json:"colliders"`
	ColliderGroups []colliderGroup1 `json:"colliderGroups"`
	Springs        []spring1        `json:"springs"`
}

type collider1 struct {
	Node       *int                       `json:"node"`
	Shape      *shape1                    `json:"shape"`
	Extensions map[string]json.RawMessage `json:"extensions"`
}

type shape1 struct {
	Sphere  *shapePart `json:"sphere"`
	Capsule *shapePart `json:"capsule"`
	Plane   *shapePart `json:"plane"`
}

// shapePart holds the fields of every shape kind (sphere, capsule, plane
// and their extended forms); each kind reads its own.
type shapePart struct {
	Offset []float64 `json:"offset"`
	Radius *float64  `json:"radius"`
	Tail   []float64 `json:"tail"`
	Normal []float64 `json:"normal"`
	Inside bool      `json:"inside"`
}

type extended1 struct {
	SpecVersion *string `json:"specVersion"`
	Shape       *shape1 `json:"shape"`
}

type colliderGroup1 struct {
	Name      string `json:"name"`
	Colliders []int  `json:"colliders"`
}

type spring1 struct {
	Name           string                     `json:"name"`
	Joints         []joint1                   `json:"joints"`
	ColliderGroups []int                      `json:"colliderGroups"`
	Center         *int                       `json:"center"`
	Extensions     map[string]json.RawMessage `json:"extensions"`
}

type joint1 struct {
	Node         *int                       `json:"node"`
	HitRadius    *float64                   `json:"hitRadius"`
	Stiffness    *float64                   `json:"stiffness"`
	GravityPower *float64                   `json:"gravityPower"`
	GravityDir   []float64                  `json:"gravityDir"`
	DragForce    *float64                   `json:"dragForce"`
	Extensions   map[string]json.RawMessage `json:"extensions"`
}

// limit1 is a VRMC_springBone_limit extension on a joint.
type limit1 struct {
	SpecVersion *string `json:"specVersion"`
	Limit       *struct {
		Cone      *limitPart `json:"cone"`
		Hinge     *limitPart `json:"hinge"`
		Spherical *limitPart `json:"spherical"`
	} `json:"limit"`
}

// limitPart holds the fields of every limit kind; each reads its own.
type limitPart struct {
	Angle    *float64  `json:"angle"`
	Pitch    *float64  `json:"pitch"`
	Yaw      *float64  `json:"yaw"`
	Rotation []float64 `json:"rotation"`
	// Phi and Theta are an earlier draft's spherical angles, whose axes
	// that draft left open: recognised only to say they are not read.
	Phi   *float64 `json:"phi"`
	Theta *float64 `json:"theta"`
}

var springVersions1 = map[string]bool{"1.0": true, "1.0-beta": true}

func (l *loader) readSpringBone1(raw json.RawMessage) error {
	var sb springBone1
	if err := unmarshal(raw, &sb, springPath); err != nil {
		return err
	}
	if !springVersions1[sb.SpecVersion] {
		l.warn("%s ignored: unknown specVersion %q", springPath, sb.SpecVersion)
		return nil
	}
	if len(sb.Colliders) > MaxColliders {
		return bad(springPath+".colliders", len(sb.Colliders), "more than MaxColliders (%d)", MaxColliders)
	}
	if len(sb.ColliderGroups) > MaxColliderGroups {
		return bad(springPath+".colliderGroups", len(sb.ColliderGroups), "more than MaxColliderGroups (%d)", MaxColliderGroups)
	}
	if len(sb.Springs) > MaxSprings {
		return bad(springPath+".springs", len(sb.Springs), "more than MaxSprings (%d)", MaxSprings)
	}
	for i := range sb.Colliders {
		c, err := l.collider1(fmt.Sprintf("%s.colliders[%d]", springPath, i), &sb.Colliders[i])
		if err != nil {
			return err
		}
		l.rig.Colliders = append(l.rig.Colliders, c)
	}
	groups := make([][]int, len(sb.ColliderGroups))
	for g, cg := range sb.ColliderGroups {
		for k, c := range cg.Colliders {
			if c < 0 || c >= len(sb.Colliders) {
				return bad(fmt.Sprintf("%s.colliderGroups[%d].colliders[%d]", springPath, g, k), c, "no such collider (%d colliders)", len(sb.Colliders))
			}
		}
		groups[g] = cg.Colliders
	}
	refs, joints := 0, 0
	for s := range sb.Springs {
		sp := &sb.Springs[s]
		path := fmt.Sprintf("%s.springs[%d]", springPath, s)
		if joints += len(sp.Joints); joints > MaxJoints {
			return bad(path+".joints", len(sp.Joints), "more than MaxJoints (%d) joints in all springs", MaxJoints)
		}
		out := Spring{Name: sp.Name}
		if len(sp.Joints) == 0 {
			return bad(path+".joints", 0, "a spring needs at least one joint")
		}
		if _, ok := sp.Extensions[extLimit]; ok {
			l.warn("%s.extensions.%s: a limit on a spring (where an earlier draft put it) is not read: the draft puts it on joints", path, extLimit)
		}
		prev := -1
		for j := range sp.Joints {
			jpath := fmt.Sprintf("%s.joints[%d]", path, j)
			jt, node, err := l.joint1(jpath, &sp.Joints[j], prev)
			if err != nil {
				return err
			}
			if j == 0 {
				l.firstJoint(node)
			}
			if jt.Limit, err = l.limit1(jpath, sp.Joints[j].Extensions[extLimit], j == len(sp.Joints)-1); err != nil {
				return err
			}
			out.Joints = append(out.Joints, jt)
			prev = node
		}
		var err error
		if out.Colliders, refs, err = flatten(path+".colliderGroups", sp.ColliderGroups, groups, refs); err != nil {
			return err
		}
		if sp.Center != nil {
			if out.Center, err = l.need(path+".center", *sp.Center); err != nil {
				return err
			}
		}
		l.rig.Springs = append(l.rig.Springs, out)
	}
	return nil
}

// joint1 reads a joint; prev is the previous joint's node (-1 for the
// first): the joint must be its child, as the spring kernels assume.
func (l *loader) joint1(path string, j *joint1, prev int) (Joint, int, error) {
	var out Joint
	if j.Node == nil {
		return out, 0, bad(path+".node", nil, "required")
	}
	node := *j.Node
	var err error
	if out.Bone, err = l.need(path+".node", node); err != nil {
		return out, 0, err
	}
	if prev >= 0 && int(l.parent[node]) != prev {
		return out, 0, bad(path+".node", node, "must be a child of the previous joint's node %d", prev)
	}
	if out.HitRadius, err = nonNeg(path+".hitRadius", j.HitRadius, 0); err != nil {
		return out, 0, err
	}
	if out.Stiffness, err = nonNeg(path+".stiffness", j.Stiffness, 1); err != nil {
		return out, 0, err
	}
	if out.GravityPower, err = nonNeg(path+".gravityPower", j.GravityPower, 0); err != nil {
		return out, 0, err
	}
	if out.GravityDir, err = vec3(path+".gravityDir", j.GravityDir, mgl32.Vec3{0, -1, 0}); err != nil {
		return out, 0, err
	}
	if out.DragForce, err = unit(path+".dragForce", j.DragForce, 0.5); err != nil {
		return out, 0, err
	}
	return out, node, nil
}

// limitVersions are the VRMC_springBone_limit versions read: the draft's,
// as three-vrm reads it.
var limitVersions = map[string]bool{"1.0-draft": true}

// limit1 reads a joint's VRMC_springBone_limit (raw is nil without one)
// into a spring.Limit. The extension and sway share the limit's frame (see
// the package doc), so the values carry over: angles converted from the
// file's radians to degrees (clamped to π, π/2 for a yaw, as the draft
// counts them), a spherical limit's pitch as PitchDegrees and yaw as
// YawDegrees, the rotation (x, y, z, w). A missing or unknown specVersion, a limit of no
// known kind or of an earlier draft's form is not read, and a limit on
// the last joint (only the tail) does nothing: each with a warning.
func (l *loader) limit1(jpath string, raw json.RawMessage, tail bool) (spring.Limit, error) {
	var out spring.Limit
	if raw == nil {
		return out, nil
	}
	path := jpath + ".extensions." + extLimit
	var e limit1
	if err := unmarshal(raw, &e, path); err != nil {
		return out, err
	}
	if problem := versionProblem(e.SpecVersion, limitVersions); problem != "" {
		l.warn("%s: %s: the limit is not read", path, problem)
		return out, nil
	}
	lim := e.Limit
	if lim == nil || (lim.Cone == nil && lim.Hinge == nil && lim.Spherical == nil) {
		l.warn("%s.limit: no known limit (cone, hinge or spherical): not read", path)
		return out, nil
	}
	kinds := 0
	for _, p := range []*limitPart{lim.Cone, lim.Hinge, lim.Spherical} {
		if p != nil {
			kinds++
		}
	}
	if kinds > 1 {
		l.warn("%s.limit: %d kinds of limit where one is allowed: the first of cone, hinge, spherical is read", path, kinds)
	}
	var part *limitPart
	var err error
	switch {
	case lim.Cone != nil, lim.Hinge != nil:
		p := path + ".limit.cone"
		part, out.Kind = lim.Cone, spring.ConeLimit
		if lim.Cone == nil {
			p = path + ".limit.hinge"
			part, out.Kind = lim.Hinge, spring.HingeLimit
		}
		if part.Angle == nil {
			return out, bad(p+".angle", nil, "required")
		}
		if out.AngleDegrees, err = limitAngle(p+".angle", part.Angle, math.Pi); err != nil {
			return out, err
		}
		if out.Rotation, err = limitRotation(p+".rotation", part.Rotation); err != nil {
			return out, err
		}
	default:
		p := path + ".limit.spherical"
		part, out.Kind = lim.Spherical, spring.SphericalLimit
		if part.Pitch == nil && part.Yaw == nil && (part.Phi != nil || part.Theta != nil) {
			l.warn("%s: phi and theta, an earlier draft's angles whose axes it left open: not read (the draft has pitch and yaw)", p)
			return spring.Limit{}, nil
		}
		if part.Pitch == nil {
			return out, bad(p+".pitch", nil, "required")
		}
		if part.Yaw == nil {
			return out, bad(p+".yaw", nil, "required")
		}
		if out.PitchDegrees, err = limitAngle(p+".pitch", part.Pitch, math.Pi); err != nil {
			return out, err
		}
		if out.YawDegrees, err = limitAngle(p+".yaw", part.Yaw, math.Pi/2); err != nil {
			return out, err
		}
		if out.Rotation, err = limitRotation(p+".rotation", part.Rotation); err != nil {
			return out, err
		}
	}
	if tail {
		l.warn("%s: on the spring's last joint, which is only the tail: it limits nothing", path)
	}
	return out, nil
}

// limitAngle reads a limit's angle, in radians in the file, as degrees:
// non-negative, and above max (π, or π/2 for a yaw) counted as max, as the
// draft prescribes.
func limitAngle(path string, p *float64, max float64) (float32, error) {
	if _, err := nonNeg(path, p, 0); err != nil {
		return 0, err
	}
	return float32(math.Min(*p, max) * (180 / math.Pi)), nil
}

// limitRotation reads a limit's rotation (x, y, z, w; default the
// identity), which must be a unit quaternion.
func limitRotation(path string, r []float64) (mgl32.Quat, error) {
	if r == nil {
		return mgl32.QuatIdent(), nil
	}
	if len(r) != 4 {
		return mgl32.Quat{}, bad(path, r, "must have 4 numbers")
	}
	q := mgl32.Quat{W: float32(r[3]), V: mgl32.Vec3{float32(r[0]), float32(r[1]), float32(r[2])}}
	if !mathx.QuatFinite(q) {
		return q, bad(path, r, "must be finite float32 numbers")
	}
	return unitQuat(path, q)
}

// flatten turns a spring's collider groups into collider indices, in
// group order, each once. refs counts the work over all springs.
func flatten(path string, refs []int, groups [][]int, total int) ([]int, int, error) {
	var out []int
	seen := map[int]bool{}
	for k, g := range refs {
		if g < 0 || g >= len(groups) {
			return nil, total, bad(fmt.Sprintf("%s[%d]", path, k), g, "no such collider group (%d groups)", len(groups))
		}
		if total += len(groups[g]); total > MaxColliderRefs {
			return nil, total, bad(fmt.Sprintf("%s[%d]", path, k), g, "more than MaxColliderRefs (%d) collider references in all springs", MaxColliderRefs)
		}
		for _, c := range groups[g] {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out, total, nil
}

// extendedVersions are the VRMC_springBone_extended_collider versions
// read: "1.0", and "1.0-draft", what the draft specification's examples
// and three-vrm's plane-collider example write.
var extendedVersions = map[string]bool{"1.0": true, "1.0-draft": true}

// versionProblem says why an extension's specVersion is not read: missing
// (the extensions' READMEs require it) or not one of known. "" when it is.
func versionProblem(v *string, known map[string]bool) string {
	switch {
	case v == nil:
		return "no specVersion (required)"
	case !known[*v]:
		return fmt.Sprintf("unknown specVersion %q", *v)
	}
	return ""
}

// collider1 reads a collider. A VRMC_springBone_extended_collider
// extension with a known specVersion and a shape replaces the base shape,
// which then is only the fallback for readers without the extension and is
// not read. An extension whose specVersion is missing or unknown is not
// read, as by a reader without it, and neither is one without a known
// shape: the base shape is used, with a warning. Without a base shape
// then, the collider has none it can be given: the error says why.
func (l *loader) collider1(path string, c *collider1) (Collider, error) {
	var out Collider
	if c.Node == nil {
		return out, bad(path+".node", nil, "required")
	}
	var err error
	if out.Bone, err = l.need(path+".node", *c.Node); err != nil {
		return out, err
	}
	hasBase := c.Shape != nil && (c.Shape.Sphere != nil || c.Shape.Capsule != nil)
	problem := ""
	if raw, ok := c.Extensions[extExtended]; ok {
		epath := path + ".extensions." + extExtended
		var e extended1
		if err := unmarshal(raw, &e, epath); err != nil {
			return out, err
		}
		switch problem = versionProblem(e.SpecVersion, extendedVersions); {
		case problem != "":
		case e.Shape == nil || (e.Shape.Sphere == nil && e.Shape.Capsule == nil && e.Shape.Plane == nil):
			problem = "no known shape (sphere, capsule or plane)"
		default:
			l.oneShape(epath+".shape", e.Shape, true)
			out.Shape, err = readShape(epath+".shape", e.Shape, true)
			return out, err
		}
		if hasBase {
			l.warn("%s: %s: the extension is not read, the base shape is used", epath, problem)
		} else {
			l.warn("%s: %s: the extension is not read, and there is no base shape", epath, problem)
		}
	}
	if !hasBase {
		if problem != "" {
			return out, bad(path+".shape", nil, "needs a sphere or a capsule: the %s shape is not read (%s)", extExtended, problem)
		}
		return out, bad(path+".shape", nil, "needs a sphere or a capsule")
	}
	l.oneShape(path+".shape", c.Shape, false)
	out.Shape, err = readShape(path+".shape", c.Shape, false)
	return out, err
}

// oneShape warns about a shape with more than one kind (the formats
// allow one): readShape reads the first.
func (l *loader) oneShape(path string, s *shape1, extended bool) {
	n := 0
	for _, p := range []*shapePart{s.Sphere, s.Capsule} {
		if p != nil {
			n++
		}
	}
	order := "sphere, capsule"
	if extended {
		order += ", plane"
		if s.Plane != nil {
			n++
		}
	}
	if n > 1 {
		l.warn("%s: %d kinds of shape where one is allowed: the first of %s is read", path, n, order)
	}
}

// readShape reads the first shape present, in the order sphere, capsule,
// plane (a shape must have exactly one; the order only settles a file that
// has more). extended allows inside shapes and planes.
func readShape(path string, s *shape1, extended bool) (collide.Desc, error) {
	var d collide.Desc
	var err error
	switch {
	case s.Sphere != nil:
		p := path + ".sphere"
		var off mgl32.Vec3
		var r float32
		if off, err = vec3(p+".offset", s.Sphere.Offset, mgl32.Vec3{}); err != nil {
			return d, err
		}
		if r, err = nonNeg(p+".radius", s.Sphere.Radius, 0); err != nil {
			return d, err
		}
		d = collide.NewSphere(off, r)
		if extended && s.Sphere.Inside {
			d.Bound = collide.Inside
		}
	case s.Capsule != nil:
		p := path + ".capsule"
		var off, tail mgl32.Vec3
		var r float32
		if off, err = vec3(p+".offset", s.Capsule.Offset, mgl32.Vec3{}); err != nil {
			return d, err
		}
		if tail, err = vec3(p+".tail", s.Capsule.Tail, mgl32.Vec3{}); err != nil {
			return d, err
		}
		if r, err = nonNeg(p+".radius", s.Capsule.Radius, 0); err != nil {
			return d, err
		}
		d = collide.NewCapsule(off, tail, r, r)
		if extended && s.Capsule.Inside {
			d.Bound = collide.Inside
		}
	default:
		p := path + ".plane"
		var off, n mgl32.Vec3
		if off, err = vec3(p+".offset", s.Plane.Offset, mgl32.Vec3{}); err != nil {
			return d, err
		}
		if n, err = vec3(p+".normal", s.Plane.Normal, mgl32.Vec3{0, 0, 1}); err != nil {
			return d, err
		}
		// Scaled by its largest component first, so that a long but
		// finite normal does not overflow.
		m := max(abs(n[0]), abs(n[1]), abs(n[2]))
		unitN, ok := mathx.SafeNormalize(n.Mul(1 / max(m, 1e-30)))
		if !ok || m < 1e-6 {
			return d, bad(p+".normal", n, "must not be zero")
		}
		d = collide.NewPlane(off, unitN)
	}
	if err := d.Validate(); err != nil {
		return d, bad(path, d, "%v", err)
	}
	return d, nil
}

func abs(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}
