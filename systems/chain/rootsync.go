package chain

import "github.com/go-gl/mathgl/mgl32"

// RootSync makes a chain's root bone follow a driver bone before the
// chains are prepared (KawaiiPhysics' SyncBone): the root bone is moved,
// in the character's model space, by Weight times the driver's
// displacement from its rest position (per axis). A skirt's front strand
// whose root follows the thigh with weight (0, 0, 0.5) moves forward
// half as far as the thigh's joint when the leg lifts, before the
// simulation runs; the strand then swings from there.
type RootSync struct {
	Root, Driver int32      // bone indices: the chain's root bone and the bone it follows
	Weight       mgl32.Vec3 // per axis of the model space, each 0..1
	DriverRest   mgl32.Vec3 // the driver's rest position in model space
}

// Offset returns the model-space offset of the synced root for a driver
// at driver (model space): Weight ⊙ (driver − DriverRest).
func (s *RootSync) Offset(driver mgl32.Vec3) mgl32.Vec3 {
	d := driver.Sub(s.DriverRest)
	return mgl32.Vec3{float32(s.Weight[0] * d[0]), float32(s.Weight[1] * d[1]), float32(s.Weight[2] * d[2])}
}
