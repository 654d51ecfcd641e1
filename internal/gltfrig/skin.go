package gltfrig

import (
	"encoding/json"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
)

// Skin is one of the file's skins: its joints as bone names, in the
// skin's own order (the order the mesh's JOINTS_0 indices refer to), and
// each joint's inverse bind matrix, column-major, read from
// inverseBindMatrices (the identity for every joint when the skin has
// none, as glTF specifies). A renderer's skinning matrix for joint k is
// the joint bone's world transform times InverseBind[k].
//
// The matrices are the file's. On a VRM 0.x file the loader turns the
// skeleton half a turn about Y before its root bones, so the bones' world
// transforms, and the skinning matrices with them, carry that turn: the
// mesh, given in the file's space, comes out turned with the skeleton.
type Skin struct {
	Name        string
	Joints      []string
	InverseBind []mgl32.Mat4
}

// readSkins reads every skin's joints and inverse bind matrices. The
// joints were checked to be nodes, and are bones, by markSkeleton.
func (l *loader) readSkins(raw []json.RawMessage) error {
	used := map[string]bool{}
	for s, r := range raw {
		var skin gltf.Skin
		path := fmt.Sprintf("skins[%d]", s)
		if err := unmarshal(r, &skin, path); err != nil {
			return err
		}
		if len(skin.Joints) > MaxBones {
			return bad(path+".joints", len(skin.Joints), "more than MaxBones (%d) joints", MaxBones)
		}
		out := Skin{Name: uniqueName(used, skin.Name, "skin", s), Joints: make([]string, len(skin.Joints)),
			InverseBind: make([]mgl32.Mat4, len(skin.Joints))}
		for k, j := range skin.Joints {
			out.Joints[k] = l.names[j]
			out.InverseBind[k] = mgl32.Ident4()
		}
		if skin.InverseBindMatrices != nil {
			ref := path + ".inverseBindMatrices"
			data, err := l.bin.get(ref, *skin.InverseBindMatrices, accMAT4, false)
			if err != nil {
				return err
			}
			if data.Count < len(skin.Joints) {
				return bad(fmt.Sprintf("accessors[%d].count", *skin.InverseBindMatrices), data.Count,
					"fewer inverse bind matrices than %s has joints (%d)", path, len(skin.Joints))
			}
			for k := range out.InverseBind {
				copy(out.InverseBind[k][:], data.Values[16*k:16*k+16])
			}
		}
		l.rig.Skins = append(l.rig.Skins, out)
	}
	return nil
}
