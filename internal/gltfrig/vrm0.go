package gltfrig

import (
	"encoding/json"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/systems/collide"
)

const vrm0Path = "extensions." + extVRM0

// vrm0 is the part of the VRM 0.x extension a rig needs.
type vrm0 struct {
	Humanoid *struct {
		HumanBones []struct {
			Bone string `json:"bone"`
			Node *int   `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
	SecondaryAnimation *struct {
		BoneGroups     []boneGroup0     `json:"boneGroups"`
		ColliderGroups []colliderGroup0 `json:"colliderGroups"`
	} `json:"secondaryAnimation"`
}

// vec0 is a 0.x vector: an object, in Unity's left-handed space (see the
// package doc). Missing components are 0.
type vec0 struct {
	X, Y, Z *float64
}

type boneGroup0 struct {
	Comment        string   `json:"comment"`
	Stiffiness     *float64 `json:"stiffiness"` // sic: the format's spelling
	GravityPower   *float64 `json:"gravityPower"`
	GravityDir     *vec0    `json:"gravityDir"`
	DragForce      *float64 `json:"dragForce"`
	Center         *int     `json:"center"`
	HitRadius      *float64 `json:"hitRadius"`
	Bones          []int    `json:"bones"`
	ColliderGroups []int    `json:"colliderGroups"`
}

type colliderGroup0 struct {
	Node      *int `json:"node"`
	Colliders []struct {
		Offset *vec0    `json:"offset"`
		Radius *float64 `json:"radius"`
	} `json:"colliders"`
}

func (l *loader) readVRM0(raw json.RawMessage) error {
	var v vrm0
	if err := unmarshal(raw, &v, vrm0Path); err != nil {
		return err
	}
	if v.Humanoid != nil {
		if err := l.readHumanoid0(v.Humanoid.HumanBones); err != nil {
			return err
		}
	}
	if sa := v.SecondaryAnimation; sa != nil {
		groups, err := l.readColliderGroups0(sa.ColliderGroups)
		if err != nil {
			return err
		}
		return l.readBoneGroups0(sa.BoneGroups, groups)
	}
	return nil
}

func (l *loader) readHumanoid0(hb []struct {
	Bone string `json:"bone"`
	Node *int   `json:"node"`
}) error {
	path := vrm0Path + ".humanoid.humanBones"
	if len(hb) > MaxHumanBones {
		return bad(path, len(hb), "more than MaxHumanBones (%d)", MaxHumanBones)
	}
	l.rig.Humanoid = make(map[string]string, len(hb))
	for i, b := range hb {
		p := fmt.Sprintf("%s[%d]", path, i)
		if b.Bone == "" {
			return bad(p+".bone", b.Bone, "required")
		}
		if _, dup := l.rig.Humanoid[b.Bone]; dup {
			return bad(p+".bone", b.Bone, "listed twice")
		}
		if b.Node == nil {
			return bad(p+".node", nil, "required")
		}
		bone, err := l.need(p+".node", *b.Node)
		if err != nil {
			return err
		}
		l.rig.Humanoid[b.Bone] = bone
	}
	return nil
}

// unity0 reads a 0.x vector and converts it from Unity's space to glTF's:
// z negated, as UniVRM 0.x writes these vectors without the conversion it
// applies to nodes.
func unity0(path string, v *vec0, def mgl32.Vec3) (mgl32.Vec3, error) {
	if v == nil {
		return def, nil
	}
	var out mgl32.Vec3
	var err error
	for a, p := range [3]*float64{v.X, v.Y, v.Z} {
		if out[a], err = f32(path+"."+"xyz"[a:a+1], p, 0); err != nil {
			return out, err
		}
	}
	out[2] = -out[2]
	return out, nil
}

// readColliderGroups0 appends every group's spheres to Rig.Colliders and
// returns each group's collider indices.
func (l *loader) readColliderGroups0(cgs []colliderGroup0) ([][]int, error) {
	path := vrm0Path + ".secondaryAnimation.colliderGroups"
	if len(cgs) > MaxColliderGroups {
		return nil, bad(path, len(cgs), "more than MaxColliderGroups (%d)", MaxColliderGroups)
	}
	groups := make([][]int, len(cgs))
	for g := range cgs {
		p := fmt.Sprintf("%s[%d]", path, g)
		if cgs[g].Node == nil {
			return nil, bad(p+".node", nil, "required")
		}
		bone, err := l.need(p+".node", *cgs[g].Node)
		if err != nil {
			return nil, err
		}
		for k, c := range cgs[g].Colliders {
			cp := fmt.Sprintf("%s.colliders[%d]", p, k)
			if len(l.rig.Colliders) >= MaxColliders {
				return nil, bad(cp, len(l.rig.Colliders), "more than MaxColliders (%d) colliders in all groups", MaxColliders)
			}
			off, err := unity0(cp+".offset", c.Offset, mgl32.Vec3{})
			if err != nil {
				return nil, err
			}
			r, err := nonNeg(cp+".radius", c.Radius, 0)
			if err != nil {
				return nil, err
			}
			groups[g] = append(groups[g], len(l.rig.Colliders))
			l.rig.Colliders = append(l.rig.Colliders, Collider{Bone: bone, Shape: collide.NewSphere(off, r)})
		}
	}
	return groups, nil
}

// UniVRM 0.x component defaults, used for settings a bone group omits.
const (
	stiffness0 = 1
	drag0      = 0.4
	hitRadius0 = 0.02
)

// readBoneGroups0 expands every group's bones into springs. Each listed
// bone is the root of a tree of joints: every node below it swings, as in
// UniVRM 0.x and three-vrm. A tree becomes chains: from a node the chain
// follows the first child (a joint's tail is its first child) down to a
// leaf, which swings with a virtual tail; every further child starts a new
// spring, listed after the one it branches from, so that stepping springs
// in order sees the branch point's new rotation first.
func (l *loader) readBoneGroups0(bgs []boneGroup0, groups [][]int) error {
	path := vrm0Path + ".secondaryAnimation.boneGroups"
	if len(bgs) > MaxSprings {
		return bad(path, len(bgs), "more than MaxSprings (%d)", MaxSprings)
	}
	refs, joints := 0, 0
	for g := range bgs {
		bg := &bgs[g]
		p := fmt.Sprintf("%s[%d]", path, g)
		var proto Joint
		var err error
		if proto.Stiffness, err = nonNeg(p+".stiffiness", bg.Stiffiness, stiffness0); err != nil {
			return err
		}
		if proto.GravityPower, err = nonNeg(p+".gravityPower", bg.GravityPower, 0); err != nil {
			return err
		}
		// World space: Unity's, then half a turn with the whole rig.
		if proto.GravityDir, err = unity0(p+".gravityDir", bg.GravityDir, mgl32.Vec3{0, -1, 0}); err != nil {
			return err
		}
		if bg.GravityDir != nil {
			proto.GravityDir = turnY(proto.GravityDir)
		}
		if proto.DragForce, err = unit(p+".dragForce", bg.DragForce, drag0); err != nil {
			return err
		}
		if proto.HitRadius, err = nonNeg(p+".hitRadius", bg.HitRadius, hitRadius0); err != nil {
			return err
		}
		var center string
		if bg.Center != nil && *bg.Center != -1 {
			if center, err = l.need(p+".center", *bg.Center); err != nil {
				return err
			}
		}
		var colliders []int
		if colliders, refs, err = flatten(p+".colliderGroups", bg.ColliderGroups, groups, refs); err != nil {
			return err
		}
		name := bg.Comment
		if name == "" {
			name = fmt.Sprintf("boneGroups[%d]", g)
		}
		for k, root := range bg.Bones {
			bp := fmt.Sprintf("%s.bones[%d]", p, k)
			if _, err := l.need(bp, root); err != nil {
				return err
			}
			chains, err := l.expand0(bp, root, &joints)
			if err != nil {
				return err
			}
			for _, chain := range chains {
				if len(l.rig.Springs) >= MaxSprings {
					return bad(bp, root, "more than MaxSprings (%d) chains in all bone groups", MaxSprings)
				}
				l.firstJoint(chain[0])
				s := Spring{Name: name, Center: center, Colliders: colliders, VirtualTail: VirtualTail0x}
				for _, node := range chain {
					j := proto
					j.Bone, _ = l.need(bp, node)
					s.Joints = append(s.Joints, j)
				}
				l.rig.Springs = append(l.rig.Springs, s)
			}
		}
	}
	return nil
}

// expand0 splits the tree under root into first-child chains in
// depth-first order, counting joints against MaxJoints.
func (l *loader) expand0(path string, root int, joints *int) ([][]int, error) {
	var chains [][]int
	starts := []int{root}
	for len(starts) > 0 {
		n := starts[len(starts)-1]
		starts = starts[:len(starts)-1]
		var chain []int
		var branches []int
		for {
			if *joints++; *joints > MaxJoints {
				return nil, bad(path, root, "more than MaxJoints (%d) joints in all springs", MaxJoints)
			}
			chain = append(chain, n)
			ch := l.nodes[n].Children
			if len(ch) == 0 {
				break
			}
			branches = append(branches, ch[1:]...)
			n = ch[0]
		}
		chains = append(chains, chain)
		// Depth-first: the first branch off the chain comes next.
		for i := len(branches) - 1; i >= 0; i-- {
			starts = append(starts, branches[i])
		}
	}
	return chains, nil
}
