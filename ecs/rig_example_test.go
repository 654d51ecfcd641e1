package sway_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/sway-anim/sway/ecs"
	"github.com/sway-anim/sway/internal/gltfrig"
)

// exampleVRM writes the test avatar (VRM 1.0, two hair springs) to a temp
// dir, standing in for a file exported from VRoid Studio or UniVRM.
func exampleVRM() string {
	dir, _ := os.MkdirTemp("", "sway-example")
	glb, err := gltfrig.Fixture(gltfrig.VersionVRM1, gltfrig.FixtureOptions{})
	if err != nil {
		panic(err)
	}
	path := filepath.Join(dir, "avatar.vrm")
	if err := os.WriteFile(path, glb, 0o644); err != nil {
		panic(err)
	}
	return path
}

// Load a VRM and let its hair swing: its springs, colliders and settings
// come from the file. The head and eyes then follow a point, set up from
// the humanoid map with no bone name typed.
func ExampleLoadRig() {
	path := exampleVRM()
	defer os.RemoveAll(filepath.Dir(path))
	w, err := sway.NewWorld(sway.Options{})
	if err != nil {
		panic(err)
	}
	defer w.Close()

	rig, err := sway.LoadRig(path)
	if err != nil {
		panic(err)
	}
	avatar, err := w.AddRig(rig, sway.At(mgl32.Vec3{0, 0, 0}))
	if err != nil {
		panic(err)
	}

	look := sway.LookAtFor(nil)
	look.HeadBone = rig.HumanBone("head")
	look.Eyes[0].Bone, look.Eyes[1].Bone = rig.HumanBone("leftEye"), rig.HumanBone("rightEye")
	if _, err := w.LookAt().Add(avatar, look); err != nil {
		panic(err)
	}
	_ = w.LookAt().Of(avatar).SetTarget(mgl32.Vec3{2, 1.5, 2})

	for frame := 0; frame < 120; frame++ {
		_ = w.SetRoot(avatar, sway.At(mgl32.Vec3{float32(frame) / 60, 0, 0})) // walking along +X
		if err := w.Step(1.0 / 60); err != nil {
			panic(err)
		}
	}
	skel, _ := w.Skeleton(avatar)
	tip, _ := w.BoneWorld(avatar, skel.Index("hairL3"))
	root, _ := w.Root(avatar)
	// At rest the tip is 5 cm to the left (+X) of the root; walking along
	// +X, the hair trails behind.
	fmt.Printf("%s: %d bones, %d springs; hair tip %.2f m from the root along x\n",
		rig.Version, skel.NumBones(), w.VRMSprings().Of(avatar).Len(), tip.Pos[0]-root.Pos[0])
	// Output: VRM 1.0: 16 bones, 2 springs; hair tip -0.02 m from the root along x
}
