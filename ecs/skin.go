package sway

import (
	"fmt"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/rig"
	"github.com/sway-anim/sway/systems"
	"github.com/sway-anim/sway/systems/skin"
)

// SkinDesc describes a skin: the joints a mesh is bound to, in the mesh's
// own order (the order its vertices' joint indices count in), and their
// inverse bind matrices.
type SkinDesc struct {
	// Name names the skin (for tools and errors; may be empty).
	Name string
	// Joints names each joint's bone, in the skin's order: joint j's
	// matrix is written at index j, whatever the bone's index in the
	// skeleton (which stores bones depth-first). A bone may be listed
	// more than once.
	Joints []string
	// InverseBind holds each joint's inverse bind matrix, column-major:
	// the matrix that takes a vertex of the mesh as bound (bind space) to
	// the joint's space at bind time. One per joint, finite, affine (last
	// row (0, 0, 0, 1) within 1e-5) and invertible. nil (the default):
	// the inverse of each joint's model-space rest transform
	// (Skeleton.ModelPos, ModelRot, ModelScale), for a mesh modelled
	// around the skeleton's rest pose in the character's space.
	InverseBind []mgl32.Mat4
}

// Skin is a validated skin of one skeleton: its joints as bone indices
// and its inverse bind matrices. It is immutable set-up data, shared by
// every character of the skeleton: build it once per skeleton with
// NewSkin, and pass it to World.SkinMatrices or World.SkinFloats for any
// character of that skeleton. A Skin holds nothing per character and is
// not part of a world: removing a character leaves nothing to free, and a
// snapshot neither holds nor needs it.
type Skin struct {
	name    string
	skel    *rig.Skeleton
	joints  []int32
	invBind []mgl32.Mat4
}

const skinType = "SkinDesc"

// NewSkin validates desc against skel and returns the skin, or a
// *FieldError naming the field: a joint naming no bone of skel
// ("Joints[2]"), as many inverse bind matrices as joints
// ("InverseBind"), a matrix that is not finite, not affine or singular
// ("InverseBind[3]"), or a joint whose rest transform cannot be inverted
// when InverseBind is nil (a zero rest scale). Inverse bind matrices
// from the rest pose are computed in float64 and rounded once. A skin
// with no joints is valid and writes nothing.
//
// Skins of a loaded file: build the skin from the skeleton the character
// has (World.Skeleton), since AddRig builds one skeleton per rig and
// world.
func NewSkin(skel *Skeleton, desc SkinDesc) (*Skin, error) {
	if skel == nil || skel.r == nil {
		return nil, check.Errorf(skinType, "Skeleton", nil, "a skin needs a skeleton (from NewSkeleton or World.Skeleton)")
	}
	r := skel.r
	if desc.InverseBind != nil && len(desc.InverseBind) != len(desc.Joints) {
		return nil, check.Errorf(skinType, "InverseBind", len(desc.InverseBind), "has %d matrices for %d joints: one per joint, or nil for the rest pose", len(desc.InverseBind), len(desc.Joints))
	}
	s := &Skin{name: desc.Name, skel: r, joints: make([]int32, len(desc.Joints)), invBind: make([]mgl32.Mat4, len(desc.Joints))}
	for j, name := range desc.Joints {
		b := r.Index(name)
		if b < 0 {
			return nil, check.Errorf(skinType, fmt.Sprintf("Joints[%d]", j), name, "names no bone of skeleton %q", r.Name())
		}
		s.joints[j] = int32(b)
	}
	if desc.InverseBind != nil {
		for j, m := range desc.InverseBind {
			if p := skin.InverseBindProblem(m); p != "" {
				return nil, check.Errorf(skinType, fmt.Sprintf("InverseBind[%d]", j), [16]float32(m), "%s", p)
			}
		}
		copy(s.invBind, desc.InverseBind)
	} else {
		mp, mr, ms := r.ModelPos(), r.ModelRot(), r.ModelScale()
		for j, b := range s.joints {
			m, ok := skin.InverseOf(mp[b], mr[b], ms[b])
			if !ok || skin.InverseBindProblem(m) != "" {
				return nil, check.Errorf(skinType, fmt.Sprintf("Joints[%d]", j), desc.Joints[j],
					"bone's model-space rest transform (scale %v) cannot be inverted: give InverseBind", ms[b])
			}
			s.invBind[j] = m
		}
	}
	job := skin.Job{Pos: r.ModelPos(), Rot: r.ModelRot(), Scale: r.ModelScale(), Joints: s.joints, InvBind: s.invBind}
	if err := job.Validate(); err != nil { // what the checks above ensure, said once more by the kernel
		return nil, check.Errorf(skinType, "Joints", desc.Joints, "%v", err)
	}
	return s, nil
}

// Name returns the skin's name.
func (s *Skin) Name() string { return s.name }

// NumJoints returns the number of joints: the number of matrices
// SkinMatrices appends (SkinFloats appends 16 values per joint).
func (s *Skin) NumJoints() int { return len(s.joints) }

// JointBone returns the skeleton's bone index of joint j.
func (s *Skin) JointBone(j int) int { return int(s.joints[j]) }

// InverseBind returns joint j's inverse bind matrix.
func (s *Skin) InverseBind(j int) mgl32.Mat4 { return s.invBind[j] }

// SkinMatrices appends to dst the skinning matrix of each joint of sk
// for character e, in the skin's joint order, and returns the extended
// slice: joint j's world transform (as of the last Step, brought up to
// date as Pose does) times its inverse bind matrix, column-major. The
// matrices map a vertex from the mesh's bind space to world space, the
// character's root included: draw the skinned mesh with an identity
// model matrix. With a dst of enough capacity (dst[:0] of last frame's
// slice) it does not allocate.
//
// A joint whose matrix would not be finite gets the identity (nothing
// non-finite is written). A skin of another skeleton than e's is a
// *FieldError; an entity that is not a live character an *EntityError;
// on error dst is returned unchanged.
func (w *World) SkinMatrices(e ecs.Entity, sk *Skin, dst []mgl32.Mat4) ([]mgl32.Mat4, error) {
	if err := w.enter("SkinMatrices"); err != nil {
		return dst, err
	}
	defer w.leave()
	job, err := w.skinJob("SkinMatrices", e, sk)
	if err != nil {
		return dst, err
	}
	n := len(dst)
	dst = slices.Grow(dst, len(sk.joints))[:n+len(sk.joints)]
	skin.Matrices(dst[n:], &job) // the count of joints given the identity is not reported
	return dst, nil
}

// SkinFloats is SkinMatrices in a flat form for GPU upload: it appends 16
// float32 values per joint, joint j's column-major matrix at
// [16*j, 16*j+16) past dst's old length, and returns the extended slice.
// The values are SkinMatrices' bit for bit (the same code writes both).
// With a dst of enough capacity it does not allocate.
func (w *World) SkinFloats(e ecs.Entity, sk *Skin, dst []float32) ([]float32, error) {
	if err := w.enter("SkinFloats"); err != nil {
		return dst, err
	}
	defer w.leave()
	job, err := w.skinJob("SkinFloats", e, sk)
	if err != nil {
		return dst, err
	}
	n := len(dst)
	dst = slices.Grow(dst, 16*len(sk.joints))[:n+16*len(sk.joints)]
	skin.Floats(dst[n:], &job)
	return dst, nil
}

// skinJob checks that e is a live character of skin's skeleton, brings
// its world transforms up to date and returns the kernel's job over them.
func (w *World) skinJob(method string, e ecs.Entity, s *Skin) (skin.Job, error) {
	p, err := w.pose(e)
	if err != nil {
		return skin.Job{}, err
	}
	if s == nil {
		return skin.Job{}, check.Errorf(method, "skin", nil, "must not be nil (see NewSkin)")
	}
	r := w.reg.Skeletons[p.Skeleton]
	if s.skel != r {
		return skin.Job{}, check.Errorf(method, "skin", s.name, "is a skin of skeleton %q; the character's is another (%q): build the skin from World.Skeleton(e)", s.skel.Name(), r.Name())
	}
	_, rc := w.chars.Get(e)
	systems.Sync(w.pool, r, p, rc)
	a, b := p.First, p.First+p.Count
	return skin.Job{
		Pos: w.pool.WorldPos[a:b], Rot: w.pool.WorldRot[a:b], Scale: w.pool.WorldScale[a:b],
		Joints: s.joints, InvBind: s.invBind,
	}, nil
}
