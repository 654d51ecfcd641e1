package rig

import (
	"fmt"
	"sort"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/internal/check"
	"github.com/sway-anim/sway/internal/mathx"
)

// MaxBones is the largest number of bones a skeleton may have.
const MaxBones = check.MaxBones

// RotationTolerance is how far from unit length a rest rotation may be and
// still be normalised; beyond it the description is rejected.
const RotationTolerance = 1e-3

// BoneDesc describes one bone of a skeleton in its parent's space.
type BoneDesc struct {
	Name   string
	Parent string     // the parent's name; "" for a root bone
	Pos    mgl32.Vec3 // rest translation relative to the parent, metres; each component within ±1e4 (check.MaxTranslation)
	Rot    mgl32.Quat // rest rotation relative to the parent (unit)
	Scale  mgl32.Vec3 // rest scale; each component between 1e-4 and 1e4 in absolute value (check.MinScale, check.MaxScale), and so the product from the root down (check.MinModelScale, check.MaxModelScale)
}

// Bone returns a BoneDesc with identity rotation and unit scale.
func Bone(name, parent string, pos mgl32.Vec3) BoneDesc {
	return BoneDesc{Name: name, Parent: parent, Pos: pos, Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
}

// SkeletonDesc is an editable description of a skeleton. Bones may be listed
// in any order; a skeleton may have several roots.
type SkeletonDesc struct {
	Name  string
	Bones []BoneDesc
}

// Skeleton is an immutable hierarchy shared by every character that uses it.
//
// Bones are stored in depth-first pre-order (children in the order the
// description lists them), so parent[i] < i and the subtree of bone i is the
// contiguous range [i, SubtreeEnd(i)). All slices are read-only.
type Skeleton struct {
	name       string
	names      []string
	parents    []int32
	subtreeEnd []int32
	restPos    []mgl32.Vec3
	restRot    []mgl32.Quat
	restScale  []mgl32.Vec3
	// Rest pose in model space (relative to the character root).
	modelPos   []mgl32.Vec3
	modelRot   []mgl32.Quat
	modelScale []mgl32.Vec3
	levelOrder []int32
	index      map[string]int32
}

const descType = "SkeletonDesc"

// NewSkeleton validates desc and builds the skeleton. It returns a
// *check.FieldError for: no bones, more than MaxBones, an empty or duplicate
// name, a missing parent, a cycle, a non-finite number, a translation
// component beyond check.MaxTranslation, a scale component outside
// [check.MinScale, check.MaxScale] in absolute value, a bone whose scale
// relative to the root (the product of the scales from the root down)
// lies outside [check.MinModelScale, check.MaxModelScale], and a rest
// rotation further than RotationTolerance from unit length (closer ones
// are normalised).
func NewSkeleton(desc SkeletonDesc) (*Skeleton, error) {
	n := len(desc.Bones)
	if n == 0 {
		return nil, check.Errorf(descType, "Bones", 0, "a skeleton needs at least one bone")
	}
	if n > MaxBones {
		return nil, check.Errorf(descType, "Bones", n, "more than MaxBones (%d) bones", MaxBones)
	}
	byName := make(map[string]int, n)
	rots := make([]mgl32.Quat, n)
	for i, b := range desc.Bones {
		field := fmt.Sprintf("Bones[%d]", i)
		if b.Name == "" {
			return nil, check.Errorf(descType, field+".Name", b.Name, "a bone needs a name")
		}
		if j, dup := byName[b.Name]; dup {
			return nil, check.Errorf(descType, field+".Name", b.Name, "duplicate of Bones[%d]", j)
		}
		byName[b.Name] = i
		if err := check.Translation(descType, field+".Pos", b.Pos); err != nil {
			return nil, err
		}
		if err := check.Scale(descType, field+".Scale", b.Scale); err != nil {
			return nil, err
		}
		q, err := check.UnitQuat(descType, field+".Rot", b.Rot, RotationTolerance)
		if err != nil {
			return nil, err
		}
		rots[i] = q
	}
	// Resolve parents and children (description order).
	parentOf := make([]int, n)
	children := make([][]int, n)
	var roots []int
	for i, b := range desc.Bones {
		if b.Parent == "" {
			parentOf[i] = -1
			roots = append(roots, i)
			continue
		}
		p, ok := byName[b.Parent]
		if !ok {
			return nil, check.Errorf(descType, fmt.Sprintf("Bones[%d].Parent", i), b.Parent, "no bone has this name")
		}
		if p == i {
			return nil, check.Errorf(descType, fmt.Sprintf("Bones[%d].Parent", i), b.Parent, "a bone cannot be its own parent")
		}
		parentOf[i] = p
		children[p] = append(children[p], i)
	}
	// Depth-first pre-order from the roots. Bones not reached sit on a cycle
	// (every bone has a parent, so a bone unreachable from a root loops).
	order := make([]int, 0, n)
	stack := make([]int, 0, n)
	for r := len(roots) - 1; r >= 0; r-- {
		stack = append(stack, roots[r])
	}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, b)
		for c := len(children[b]) - 1; c >= 0; c-- {
			stack = append(stack, children[b][c])
		}
	}
	if len(order) != n {
		seen := make([]bool, n)
		for _, b := range order {
			seen[b] = true
		}
		for i := range seen {
			if !seen[i] {
				return nil, check.Errorf(descType, fmt.Sprintf("Bones[%d].Parent", i), desc.Bones[i].Parent, "the parent chain of bone %q is a cycle", desc.Bones[i].Name)
			}
		}
	}
	s := &Skeleton{
		name:       desc.Name,
		names:      make([]string, n),
		parents:    make([]int32, n),
		subtreeEnd: make([]int32, n),
		restPos:    make([]mgl32.Vec3, n),
		restRot:    make([]mgl32.Quat, n),
		restScale:  make([]mgl32.Vec3, n),
		modelPos:   make([]mgl32.Vec3, n),
		modelRot:   make([]mgl32.Quat, n),
		modelScale: make([]mgl32.Vec3, n),
		index:      make(map[string]int32, n),
	}
	newIndex := make([]int32, n)
	for k, b := range order {
		newIndex[b] = int32(k)
	}
	for k, b := range order {
		d := desc.Bones[b]
		s.names[k] = d.Name
		s.index[d.Name] = int32(k)
		if parentOf[b] < 0 {
			s.parents[k] = -1
		} else {
			s.parents[k] = newIndex[parentOf[b]]
		}
		s.restPos[k], s.restRot[k], s.restScale[k] = d.Pos, rots[b], d.Scale
	}
	// Subtree ends: walk children-first (reverse order) and propagate.
	for k := n - 1; k >= 0; k-- {
		if s.subtreeEnd[k] == 0 {
			s.subtreeEnd[k] = int32(k + 1)
		}
		if p := s.parents[k]; p >= 0 && s.subtreeEnd[k] > s.subtreeEnd[p] {
			s.subtreeEnd[p] = s.subtreeEnd[k]
		}
	}
	// Breadth-first schedule for full forward-kinematics passes: bones of
	// one depth are independent, so consecutive bones in this order do not
	// wait on each other (a chain in storage order is one long dependency).
	depth := make([]int32, n)
	for k := 1; k < n; k++ {
		if p := s.parents[k]; p >= 0 {
			depth[k] = depth[p] + 1
		}
	}
	s.levelOrder = make([]int32, n)
	for k := range s.levelOrder {
		s.levelOrder[k] = int32(k)
	}
	sort.SliceStable(s.levelOrder, func(a, b int) bool { return depth[s.levelOrder[a]] < depth[s.levelOrder[b]] })
	// Model-space rest pose.
	for k := 0; k < n; k++ {
		p := s.parents[k]
		if p < 0 {
			s.modelPos[k], s.modelRot[k], s.modelScale[k] = s.restPos[k], s.restRot[k], s.restScale[k]
			continue
		}
		ps := s.modelScale[p]
		lp := s.restPos[k]
		s.modelPos[k] = s.modelPos[p].Add(mathx.Rotate(s.modelRot[p], mgl32.Vec3{ps[0] * lp[0], ps[1] * lp[1], ps[2] * lp[2]}))
		s.modelRot[k] = mathx.Mul(s.modelRot[p], s.restRot[k])
		ls := s.restScale[k]
		s.modelScale[k] = mgl32.Vec3{ps[0] * ls[0], ps[1] * ls[1], ps[2] * ls[2]}
	}
	// Scales relative to the root: the products along each chain. The
	// first product out of bounds (in storage order, parents first) is
	// at most MaxModelScale × MaxScale, or at least MinModelScale ×
	// MinScale: finite and non-zero, so the error shows it as it is.
	for k, b := range order {
		for _, c := range s.modelScale[k] {
			if c < 0 {
				c = -c
			}
			if !(c >= check.MinModelScale && c <= check.MaxModelScale) {
				return nil, check.Errorf(descType, fmt.Sprintf("Bones[%d].Scale", b), desc.Bones[b].Scale,
					"the bone's scale relative to the root, %v (the product of the scales from the root down), must be between %g and %g in absolute value (MinModelScale, MaxModelScale)",
					s.modelScale[k], float32(check.MinModelScale), float32(check.MaxModelScale))
			}
		}
	}
	return s, nil
}

// ScaleBoundExceeded checks a bound on the scales a pose can take: bound(b)
// is the largest absolute value any component of bone b's local scale can
// have. It returns the first bone (in storage order) whose bound relative
// to the root, the product of the bounds from the root down to it,
// exceeds MaxModelScale, and that product; or -1 and the largest product.
func (s *Skeleton) ScaleBoundExceeded(bound func(b int) float32) (int, float32) {
	var prod [MaxBones]float32
	largest := float32(0)
	for k, p := range s.parents {
		m := bound(k)
		if p >= 0 {
			m *= prod[p]
		}
		if !(m <= check.MaxModelScale) {
			return k, m
		}
		prod[k] = m
		largest = max(largest, m)
	}
	return -1, largest
}

// Name returns the skeleton's name.
func (s *Skeleton) Name() string { return s.name }

// NumBones returns the number of bones.
func (s *Skeleton) NumBones() int { return len(s.parents) }

// Index returns the index of the named bone, or -1.
func (s *Skeleton) Index(name string) int {
	if i, ok := s.index[name]; ok {
		return int(i)
	}
	return -1
}

// BoneName returns the name of bone i.
func (s *Skeleton) BoneName(i int) string { return s.names[i] }

// Parents returns the parent index of every bone (-1 for roots).
func (s *Skeleton) Parents() []int32 { return s.parents }

// SubtreeEnd returns one past the last bone of bone i's subtree.
func (s *Skeleton) SubtreeEnd(i int) int32 { return s.subtreeEnd[i] }

// SubtreeEnds returns SubtreeEnd for every bone.
func (s *Skeleton) SubtreeEnds() []int32 { return s.subtreeEnd }

// LevelOrder returns every bone index in breadth-first order (by depth,
// then by index): parents before children, and neighbours independent.
// Full forward-kinematics passes use it as their schedule.
func (s *Skeleton) LevelOrder() []int32 { return s.levelOrder }

// RestPos returns the rest local translations.
func (s *Skeleton) RestPos() []mgl32.Vec3 { return s.restPos }

// RestRot returns the rest local rotations.
func (s *Skeleton) RestRot() []mgl32.Quat { return s.restRot }

// RestScale returns the rest local scales.
func (s *Skeleton) RestScale() []mgl32.Vec3 { return s.restScale }

// ModelPos returns the rest pose's bone positions relative to the root.
func (s *Skeleton) ModelPos() []mgl32.Vec3 { return s.modelPos }

// ModelRot returns the rest pose's bone rotations relative to the root.
func (s *Skeleton) ModelRot() []mgl32.Quat { return s.modelRot }

// ModelScale returns the rest pose's bone scales relative to the root.
func (s *Skeleton) ModelScale() []mgl32.Vec3 { return s.modelScale }
